/* The compiled kernel of Connect Four's exact solver (players/search/connect4.py).

   It searches exactly as Solver's negamax in connect4.py does, move for move:
   the same rules before any move is searched, the same order of moves, the
   same cut-offs from the table. Only the table differs: an array of slots,
   each holding a whole key and its two bounds, a new entry taking the slot of
   an old one, where the pure Python table is a dict. It starts small and
   doubles when half full, up to 2^bits slots, so that a short search touches
   few pages of memory (in a fresh process each new page costs a fault). The
   values are the same (the search is exact either way); the counts of nodes
   may differ once entries are replaced.

   A Table is one board shape's table; its negamax method searches one
   position, its value method finds a position's value as Solver.value does,
   and its encode method reads a game state's board as Shape.encode does.
   connect4.py is the reference: change the two together. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <stdlib.h>

#define WIN 1
#define DRAW 0
#define LOSS (-1)
#define CHECK_EVERY 1023 /* nodes between two looks at the clock, as players/search/timing.py */
#define MAX_COLUMNS 15   /* a column's rank takes four bits of a move's score */
#define FIRST_BITS 8     /* a new table's slots: 2^8 */

typedef struct {
    uint64_t key;
    uint8_t code;       /* 0: empty; else 1 + 3 (low + 1) + (high + 1) */
} Slot;

typedef struct {
    PyObject_HEAD
    int h, size, bits, max_bits;
    int shifts[3];                /* a line's step: vertical, one diagonal, the other */
    uint64_t bottom, board;
    uint64_t columns[MAX_COLUMNS];  /* each column's mask, the middle first */
    int ranks[MAX_COLUMNS];         /* h for the middle column, down to 1 */
    Slot *slots;                  /* 2^bits of them */
    size_t used;                  /* the slots not empty */
    unsigned long long nodes, hits;
    double deadline;
    int timed, stopped;
} Table;

static PyObject *monotonic; /* time.monotonic */

static inline Slot *slot_of(const Table *t, uint64_t key)
{
    return t->slots + ((key * 0x9E3779B97F4A7C15ULL) >> (64 - t->bits));
}

static inline int look_up(const Table *t, uint64_t key, int *low, int *high)
{
    const Slot *slot = slot_of(t, key);
    if (!slot->code || slot->key != key)
        return 0;
    *low = (slot->code - 1) / 3 - 1;
    *high = (slot->code - 1) % 3 - 1;
    return 1;
}

/* Double the table, keeping its entries (two that meet keep the later); on no
   memory, keep it as it is. */
static void grow(Table *t)
{
    Slot *old = t->slots;
    size_t count = (size_t)1 << t->bits;
    Slot *slots = calloc(count * 2, sizeof *slots);
    if (slots == NULL)
        return;
    t->slots = slots;
    t->bits++;
    t->used = 0;
    for (size_t i = 0; i < count; i++) {
        if (old[i].code) {
            Slot *slot = slot_of(t, old[i].key);
            t->used += !slot->code;
            *slot = old[i];
        }
    }
    free(old);
}

static inline void store(Table *t, uint64_t key, int low, int high)
{
    Slot *slot = slot_of(t, key);
    if (!slot->code) {
        t->used++;
        if (t->used > (size_t)1 << (t->bits - 1) && t->bits < t->max_bits) {
            grow(t);
            slot = slot_of(t, key);
            t->used += !slot->code;
        }
    }
    slot->key = key;
    slot->code = (uint8_t)(1 + 3 * (low + 1) + (high + 1));
}

/* The squares of empty that would complete four in a row of stones, as
   Shape.winning_squares finds them. */
static inline uint64_t winning(const Table *t, uint64_t stones, uint64_t empty)
{
    uint64_t pair = stones & stones << 1;
    uint64_t found = pair << 1 & pair << 2;
    for (int i = 0; i < 3; i++) {
        int d1 = t->shifts[i], d2 = 2 * d1, d3 = 3 * d1;
        uint64_t shifted = stones >> d1;
        pair = stones & shifted;
        found |= (pair >> d1 & (stones >> d3 | stones << d1))
                 | (pair << d2 & (shifted | stones << d3));
    }
    return found & empty;
}

static int out_of_time(Table *t)
{
    PyObject *now = PyObject_CallNoArgs(monotonic);
    if (now == NULL)
        return -1;
    double seconds = PyFloat_AsDouble(now);
    Py_DECREF(now);
    if (seconds == -1.0 && PyErr_Occurred())
        return -1;
    return seconds > t->deadline;
}

typedef struct {
    int score;
    uint64_t move, made;
} Child;

/* A bound on the value of a position in which the player to move cannot win
   at once, threats being the opponent's winning squares: above alpha, a lower
   bound; else an upper bound. On a stop (the deadline passed: 1; a signal's
   handler or the clock raised: -1) t->stopped is set and the value means
   nothing. */
static int negamax(Table *t, uint64_t mine, uint64_t mask, int moves, int alpha, uint64_t threats)
{
    t->nodes++;
    if (!(t->nodes & CHECK_EVERY)) {
        int late = PyErr_CheckSignals() ? -1 : t->timed ? out_of_time(t) : 0;
        if (late) {
            t->stopped = late;
            return 0;
        }
    }
    uint64_t bottom = t->bottom, board = t->board;
    uint64_t possible = (mask + bottom) & board;
    uint64_t forced = possible & threats;
    if (forced) {
        if (forced & (forced - 1))
            return LOSS;
        possible = forced;
    }
    possible &= ~(threats >> 1);
    if (!possible)
        return LOSS;
    if (moves >= t->size - 2)
        return DRAW;
    uint64_t key = mine + mask;
    int low = LOSS, high = WIN;
    if (look_up(t, key, &low, &high) && (low > alpha || high <= alpha)) {
        t->hits++;
        return low > alpha ? low : high;
    }
    uint64_t empty = board ^ mask, theirs = mine ^ mask;
    Child children[MAX_COLUMNS];
    int count = 0;
    int single = !(possible & (possible - 1));
    for (int i = 0; i < (single ? 1 : t->h); i++) {
        uint64_t move = single ? possible : possible & t->columns[i];
        if (!move)
            continue;
        int known_low, known_high;
        if (look_up(t, theirs + (mask | move), &known_low, &known_high) && known_high < -alpha) {
            t->hits++;
            store(t, key, -known_high, high);
            return -known_high;
        }
        uint64_t made = winning(t, mine | move, empty);
        uint64_t reply = (mask + move + bottom) & board;
        forced = reply & made;
        if (forced)
            reply = forced & (forced - 1) ? 0 : forced;
        if (!(reply & ~(made >> 1))) {
            store(t, key, WIN, WIN);
            return WIN;
        }
        /* the score, the move's place among equals: as connect4.py sorts */
        Child child = {__builtin_popcountll(made) << 4 | (single ? 0 : t->ranks[i]), move, made};
        int j = count++;
        while (j > 0 && children[j - 1].score < child.score) {
            children[j] = children[j - 1];
            j--;
        }
        children[j] = child;
    }
    int best = LOSS;
    for (int i = 0; i < count; i++) {
        int value = -negamax(t, theirs, mask | children[i].move, moves + 1, -alpha - 1,
                             children[i].made);
        if (t->stopped)
            return 0;
        if (value > alpha) {
            store(t, key, value, high);
            return value;
        }
        if (value > best)
            best = value;
    }
    store(t, key, low, best);
    return best;
}

/* Read a position's masks from the arguments (mine, mask, moves); 0 if they are
   not a position of this table's board (a ValueError is set). */
static int read_position(Table *t, PyObject *const *args, uint64_t *mine, uint64_t *mask,
                         int *moves, const char *method)
{
    *mine = PyLong_AsUnsignedLongLong(args[0]);
    *mask = PyLong_AsUnsignedLongLong(args[1]);
    long count = PyLong_AsLong(args[2]);
    if (PyErr_Occurred())
        return 0;
    if (count < 0 || count >= t->size || (*mask & ~t->board) || (*mine & ~*mask)) {
        PyErr_Format(PyExc_ValueError, "%s: not a position of this table's board", method);
        return 0;
    }
    *moves = (int)count;
    return 1;
}

/* Read a deadline (None: none) into the table; 0 on an error. */
static int read_deadline(Table *t, PyObject *deadline)
{
    t->timed = deadline != Py_None;
    if (t->timed) {
        t->deadline = PyFloat_AsDouble(deadline);
        if (t->deadline == -1.0 && PyErr_Occurred())
            return 0;
    }
    t->stopped = 0;
    return 1;
}

static PyObject *Table_negamax(Table *t, PyObject *const *args, Py_ssize_t nargs)
{
    if (t->slots == NULL) {
        PyErr_SetString(PyExc_ValueError, "negamax: the table was never made (Table(h, v))");
        return NULL;
    }
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError,
                        "negamax(mine, mask, moves, alpha, threats, deadline) takes 6 arguments");
        return NULL;
    }
    uint64_t mine, mask;
    int moves;
    if (!read_position(t, args, &mine, &mask, &moves, "negamax"))
        return NULL;
    long alpha = PyLong_AsLong(args[3]);
    uint64_t threats = PyLong_AsUnsignedLongLong(args[4]);
    if (PyErr_Occurred())
        return NULL;
    if (alpha < LOSS || alpha > WIN || (threats & ~t->board)) {
        PyErr_SetString(PyExc_ValueError, "negamax: not a position of this table's board");
        return NULL;
    }
    if (!read_deadline(t, args[5]))
        return NULL;
    int value = negamax(t, mine, mask, moves, (int)alpha, threats);
    if (t->stopped < 0)
        return NULL;
    if (t->stopped)
        Py_RETURN_NONE;
    return PyLong_FromLong(value);
}

/* The value of a position that is not over, as Solver.value finds it: a win at
   once, else a null window above a draw, then one above a loss if needed. */
static int weak_solve(Table *t, uint64_t mine, uint64_t mask, int moves)
{
    uint64_t empty = t->board ^ mask;
    if (winning(t, mine, empty) & (mask + t->bottom))
        return WIN;
    uint64_t threats = winning(t, mine ^ mask, empty);
    int bound = negamax(t, mine, mask, moves, DRAW, threats);
    if (t->stopped || bound != DRAW)
        return bound;
    return negamax(t, mine, mask, moves, LOSS, threats) > LOSS ? DRAW : LOSS;
}

static PyObject *Table_value(Table *t, PyObject *const *args, Py_ssize_t nargs)
{
    if (t->slots == NULL) {
        PyErr_SetString(PyExc_ValueError, "value: the table was never made (Table(h, v))");
        return NULL;
    }
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "value(mine, mask, moves, deadline) takes 4 arguments");
        return NULL;
    }
    uint64_t mine, mask;
    int moves;
    if (!read_position(t, args, &mine, &mask, &moves, "value") || !read_deadline(t, args[3]))
        return NULL;
    int value = weak_solve(t, mine, mask, moves);
    if (t->stopped < 0)
        return NULL;
    if (t->stopped)
        Py_RETURN_NONE;
    return PyLong_FromLong(value);
}

/* The masks of a game state's board, a dict {(x, y): piece} with squares from
   1, as Shape.encode makes them: (mine, mask, moves), mine being the stones
   equal to mover. */
static PyObject *Table_encode(Table *t, PyObject *const *args, Py_ssize_t nargs)
{
    if (t->slots == NULL) {
        PyErr_SetString(PyExc_ValueError, "encode: the table was never made (Table(h, v))");
        return NULL;
    }
    if (nargs != 2 || !PyDict_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "encode(board, mover) takes a dict and a player");
        return NULL;
    }
    PyObject *board = args[0], *mover = args[1], *square, *piece;
    Py_ssize_t place = 0;
    uint64_t mine = 0, mask = 0;
    int stride = t->shifts[0], v = stride - 1;
    while (PyDict_Next(board, &place, &square, &piece)) {
        long x = -1, y = -1;
        if (PyTuple_Check(square) && PyTuple_GET_SIZE(square) == 2) {
            x = PyLong_AsLong(PyTuple_GET_ITEM(square, 0));
            y = PyLong_AsLong(PyTuple_GET_ITEM(square, 1));
            if (PyErr_Occurred())
                return NULL;
        }
        if (x < 1 || x > t->h || y < 1 || y > v) {
            PyErr_SetString(PyExc_ValueError, "encode: a square off this table's board");
            return NULL;
        }
        uint64_t bit = (uint64_t)1 << ((x - 1) * stride + y - 1);
        int same = PyObject_RichCompareBool(piece, mover, Py_EQ);
        if (same < 0)
            return NULL;
        mask |= bit;
        if (same)
            mine |= bit;
    }
    return Py_BuildValue("(KKn)", (unsigned long long)mine, (unsigned long long)mask,
                         PyDict_GET_SIZE(board));
}

static int Table_init(Table *t, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"h", "v", "bits", NULL};
    int h, v, bits = 21;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "ii|i", names, &h, &v, &bits))
        return -1;
    int stride = v + 1;
    if (h < 1 || v < 1 || h > MAX_COLUMNS || h * stride > 63 || bits < 1 || bits > 30) {
        PyErr_Format(PyExc_ValueError,
                     "Table: a %d x %d board with %d bits of slots does not fit the kernel",
                     h, v, bits);
        return -1;
    }
    int first = bits < FIRST_BITS ? bits : FIRST_BITS;
    Slot *slots = calloc((size_t)1 << first, sizeof *slots);
    if (slots == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    free(t->slots);
    t->slots = slots;
    t->used = 0;
    t->h = h;
    t->size = h * v;
    t->bits = first;
    t->max_bits = bits;
    t->shifts[0] = stride;
    t->shifts[1] = stride - 1;
    t->shifts[2] = stride + 1;
    uint64_t column = ((uint64_t)1 << v) - 1;
    t->bottom = 0;
    for (int x = 0; x < h; x++)
        t->bottom |= (uint64_t)1 << x * stride;
    t->board = t->bottom * column;
    int middle = h / 2;
    for (int rank = 0; rank < h; rank++) {
        int x = middle + (rank + 1) / 2 * (1 - rank % 2 * 2);
        t->columns[rank] = column << stride * x;
        t->ranks[rank] = h - rank;
    }
    t->nodes = t->hits = 0;
    return 0;
}

static void Table_dealloc(Table *t)
{
    free(t->slots);
    Py_TYPE(t)->tp_free((PyObject *)t);
}

static PyMethodDef Table_methods[] = {
    {"negamax", (PyCFunction)(void (*)(void))Table_negamax, METH_FASTCALL,
     "negamax(mine, mask, moves, alpha, threats, deadline)\n--\n\n"
     "Return a bound on the value of a position in which the player to move cannot win\n"
     "at once, threats being the opponent's winning squares: above alpha, a lower bound;\n"
     "else an upper bound. None if time.monotonic() passed deadline (None: no deadline)."},
    {"value", (PyCFunction)(void (*)(void))Table_value, METH_FASTCALL,
     "value(mine, mask, moves, deadline)\n--\n\n"
     "Return the value of a position that is not over for the player to move (1, 0 or -1),\n"
     "as Solver.value finds it; None if time.monotonic() passed deadline."},
    {"encode", (PyCFunction)(void (*)(void))Table_encode, METH_FASTCALL,
     "encode(board, mover)\n--\n\n"
     "Return (mine, mask, moves) for a game state's board, a dict {(x, y): piece} with\n"
     "squares from 1, as Shape.encode does: mover's stones, all the stones, their number."},
    {NULL}
};

static PyMemberDef Table_members[] = {
    {"nodes", T_ULONGLONG, offsetof(Table, nodes), READONLY, "positions searched with this table"},
    {"hits", T_ULONGLONG, offsetof(Table, hits), READONLY,
     "positions this table answered without a search"},
    {NULL}
};

static PyTypeObject TableType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "players.search._connect4.Table",
    .tp_basicsize = sizeof(Table),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Table(h, v, bits=21)\n--\n\n"
              "The transposition table of Connect Four's exact solver on an h x v board,\n"
              "of at most 2**bits slots, and the search that uses it.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Table_init,
    .tp_dealloc = (destructor)Table_dealloc,
    .tp_methods = Table_methods,
    .tp_members = Table_members,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "players.search._connect4",
    "The compiled kernel of Connect Four's exact solver (see players/search/connect4.py).", -1,
    NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__connect4(void)
{
    if (PyType_Ready(&TableType) < 0)
        return NULL;
    PyObject *time = PyImport_ImportModule("time");
    if (time == NULL)
        return NULL;
    monotonic = PyObject_GetAttrString(time, "monotonic");
    Py_DECREF(time);
    if (monotonic == NULL)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&TableType);
    if (PyModule_AddObject(m, "Table", (PyObject *)&TableType) < 0) {
        Py_DECREF(&TableType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
