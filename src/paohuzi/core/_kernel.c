/* 胡牌判定内核 (húpái pàndìng nèihé): the most-胡息 decomposition in C (R22–R27).
 *
 * The same algorithm as core/evaluator.py's HandEvaluator._best and _rest, with
 * the per-size tables as flat arrays (docs/speed.md):
 *   - a hand is a packed int, 3 bits of count per card kind (小 0–9, 大 10–19);
 *   - 坎 (three alike in hand) never split (R22): they are removed with bit
 *     operations and priced per kind;
 *   - the rest of each size (10 points, counts 0–2, one point may hold 3: the
 *     winning card) is looked up in a table of "most 胡息 without / with exactly
 *     one 将", indexed like core/tabledata.py: 3^10 keys by base-3 value, then
 *     10 × 3^9 keys with one point held three times;
 *   - a packed size is turned into that index with two look-ups of 5-point chunks
 *     (CHUNK), which also give the points held once and twice, for the 绞 check;
 *   - 绞 (two of one size and one of the other at a point) are the only groups
 *     that join the sizes: every choice of at most one 绞 per point is tried.
 * The tables are filled at construction by the recursion of _SizeTable._fill,
 * from the 胡息 grid the Python side passes in, so every preset gets its own.
 * Values below 0 mean "no split"; as in Python only their sign is ever read.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define NEG (-16000) /* "no split"; a sum of a few stays negative and fits int16 */
#define UNSET INT16_MAX
#define N3 59049     /* 3^10 */
#define N9 19683     /* 3^9 */
#define NKEYS (N3 + 10 * N9)
#define NMELD 180    /* MELD_ROWS × 20 card kinds: Group.key */

static const uint64_t LOW = 0x249249249249249ULL; /* bit 0 of every 3-bit field (20) */
#define FOURS (LOW << 2)
#define BIT(c) (1ULL << (3 * (c)))

/* Per 15-bit chunk (5 points): base-3 value (counts ≤ 2), base-3 value of the
 * other four points when one holds 3, that point (7: none), points held ≥1 / ≥2,
 * and "bad" (a count ≥ 4 or two points at 3). */
static uint32_t CHUNK[1 << 15];
#define C_B3(x) ((x) & 0xff)
#define C_B3W(x) (((x) >> 8) & 0x7f)
#define C_Q(x) (((x) >> 15) & 7)
#define C_GE1(x) (((x) >> 18) & 31)
#define C_GE2(x) (((x) >> 23) & 31)
#define C_BAD (1u << 28)

static void chunk_init(void) {
    for (uint32_t x = 0; x < (1u << 15); x++) {
        uint32_t b3 = 0, b3w = 0, mul = 1, mulw = 1, q = 7, ge1 = 0, ge2 = 0, bad = 0;
        for (int i = 0; i < 5; i++) {
            uint32_t n = (x >> (3 * i)) & 7;
            if (n) ge1 |= 1u << i;
            if (n >= 2) ge2 |= 1u << i;
            if (n >= 4 || (n == 3 && q != 7)) bad = 1;
            if (n == 3 && q == 7) {
                q = (uint32_t)i;
                mul *= 3;
                continue;
            }
            b3 += (n > 2 ? 0 : n) * mul;
            b3w += (n > 2 ? 0 : n) * mulw;
            mul *= 3;
            mulw *= 3;
        }
        if (q != 7) b3 = 0;
        CHUNK[x] = b3 | b3w << 8 | q << 15 | ge1 << 18 | ge2 << 23 | (bad ? C_BAD : 0);
    }
}

/* Index of a one-size key (30 bits) in the table order of tabledata; −1 if none. */
static inline int key_index(uint32_t key, uint32_t *ge1, uint32_t *ge2) {
    uint32_t lo = CHUNK[key & 0x7fff], hi = CHUNK[key >> 15];
    *ge1 = C_GE1(lo) | C_GE1(hi) << 5;
    *ge2 = C_GE2(lo) | C_GE2(hi) << 5;
    if ((lo | hi) & C_BAD) return -1;
    uint32_t ql = C_Q(lo), qh = C_Q(hi);
    if (ql == 7 && qh == 7) return (int)(C_B3(lo) + 243 * C_B3(hi));
    if (ql != 7 && qh != 7) return -1;
    if (ql != 7) return (int)(N3 + ql * N9 + C_B3W(lo) + 81 * C_B3(hi));
    return (int)(N3 + (5 + qh) * N9 + C_B3(lo) + 243 * C_B3W(hi));
}

typedef struct {
    int16_t v[2]; /* most 胡息 without / with exactly one 将 pair */
} Entry;

typedef struct {
    Entry *e;
    int run[8];   /* 胡息 of the 句 starting at point p (0: 一二三) */
    int v2710;    /* 二七十 */
    int pair[10]; /* the 将 */
} Size;

/* _SizeTable._fill: place the lowest card in a 句, the 二七十 or the 将. */
static int size_fill(Size *t, uint32_t key) {
    uint32_t g1, g2;
    int i = key_index(key, &g1, &g2);
    if (i < 0) return -1;
    Entry *e = &t->e[i];
    if (e->v[0] != UNSET) return i;
    if (key == 0) {
        e->v[0] = 0;
        e->v[1] = NEG;
        return i;
    }
    int p = __builtin_ctz(key) / 3, sh = 3 * p;
    int best[2] = {NEG, NEG};
    for (int k = 0; k < 3; k++) {
        uint32_t rest;
        int v, pair_only = 0;
        if (k == 0) {
            if (!(p <= 7 && (key >> (sh + 3)) & 7 && (key >> (sh + 6)) & 7)) continue;
            rest = key - (uint32_t)(BIT(p) + BIT(p + 1) + BIT(p + 2));
            v = t->run[p];
        } else if (k == 1) {
            if (!(p == 1 && (key >> 18) & 7 && (key >> 27) & 7)) continue;
            rest = key - (uint32_t)(BIT(1) + BIT(6) + BIT(9));
            v = t->v2710;
        } else {
            if (((key >> sh) & 7) < 2) continue;
            rest = key - (uint32_t)(2 * BIT(p));
            v = t->pair[p];
            pair_only = 1;
        }
        int j = size_fill(t, rest);
        if (j < 0) return -1;
        Entry *r = &t->e[j];
        if (pair_only) {
            if (r->v[0] > NEG / 2 && v + r->v[0] > best[1]) best[1] = v + r->v[0];
        } else {
            for (int w = 0; w < 2; w++)
                if (r->v[w] > NEG / 2 && v + r->v[w] > best[w]) best[w] = v + r->v[w];
        }
    }
    e->v[0] = (int16_t)best[0];
    e->v[1] = (int16_t)best[1];
    return i;
}

typedef struct {
    PyObject_HEAD
    Size size[2];
    int jiao[10];
    int peng[20], wei[20], kan[20], pao[20], ti[20];
    int flat[NMELD], gain_pao[NMELD], gain_ti[NMELD];
    PyObject *fallback; /* callable(position) for what the kernel does not take: 天胡 */
    PyTypeObject *position; /* Position: its fields read from the instance dict (or NULL) */
} Kernel;

static inline void entry2(const Kernel *k, uint64_t rest, const Entry **es, const Entry **eb,
                          uint32_t *s1, uint32_t *s2, uint32_t *b1, uint32_t *b2) {
    int i = key_index((uint32_t)(rest & 0x3fffffff), s1, s2);
    int j = key_index((uint32_t)(rest >> 30), b1, b2);
    *es = i >= 0 ? &k->size[0].e[i] : NULL;
    *eb = j >= 0 ? &k->size[1].e[j] : NULL;
}

static inline int split_value(const Entry *es, const Entry *eb, int pair) {
    if (!pair) return es->v[0] + eb->v[0];
    int a = es->v[1] + eb->v[0], b = es->v[0] + eb->v[1];
    return a > b ? a : b;
}

/* The 绞 choices, in the order of HandEvaluator._jiao_deltas (so that ties pick
 * the same split): the empty choice first, then per point ascending every earlier
 * choice extended by its 2 小 + 1 大 and by its 1 小 + 2 大 绞. */
typedef struct {
    uint64_t ds, db;
    int v;
    uint16_t js, jb;
} Jiao;
#define MAXJ 59049

static int jiao_options(const Kernel *k, uint32_t pts, uint32_t two_s, uint32_t two_b, Jiao *o) {
    int n = 1;
    o[0] = (Jiao){0, 0, 0, 0, 0};
    for (int p = 0; p < 10; p++) {
        uint32_t m = 1u << p;
        if (!(pts & m)) continue;
        int old = n;
        for (int i = 0; i < old; i++) {
            if (two_s & m) o[n++] = (Jiao){o[i].ds + 2 * BIT(p), o[i].db + BIT(p), o[i].v + k->jiao[p],
                                           (uint16_t)(o[i].js | m), o[i].jb};
            if (two_b & m) o[n++] = (Jiao){o[i].ds + BIT(p), o[i].db + 2 * BIT(p), o[i].v + k->jiao[p],
                                           o[i].js, (uint16_t)(o[i].jb | m)};
        }
    }
    return n;
}

/* HandEvaluator._rest: best 胡息 of ``rest`` in 句/绞 (+ exactly one 将 if pair).
 * ``choice`` (may be NULL) gets (small key, big key, 绞 2-小 points, 2-大 points).
 * Returns 1 on success, 0 for a key outside the tables (never met in play). */
static int rest_best(const Kernel *k, uint64_t rest, int pair, int *out, uint64_t *choice) {
    const Entry *es, *eb;
    uint32_t s1, s2, b1, b2;
    uint64_t s = rest & 0x3fffffff, b = rest >> 30;
    entry2(k, rest, &es, &eb, &s1, &s2, &b1, &b2);
    if (!es || !eb) return 0;
    int best = split_value(es, eb, pair);
    uint32_t jiao = (s2 & b1) | (s1 & b2);
    if (choice) {
        choice[0] = s;
        choice[1] = b;
        choice[2] = choice[3] = 0;
    }
    if (jiao) {
        Jiao stack_opts[243], *opts = stack_opts, *heap = NULL;
        if (__builtin_popcount(jiao) > 5) { /* 3^10 at worst; never in a real hand */
            heap = PyMem_Malloc(sizeof(Jiao) * MAXJ);
            if (!heap) return -1;
            opts = heap;
        }
        int n = jiao_options(k, jiao, s2 & jiao, b2 & jiao, opts);
        for (int i = 1; i < n; i++) {
            uint64_t r = rest - opts[i].ds - (opts[i].db << 30);
            const Entry *fs, *fb;
            uint32_t t1, t2, t3, t4;
            entry2(k, r, &fs, &fb, &t1, &t2, &t3, &t4);
            if (!fs || !fb) {
                PyMem_Free(heap);
                return 0;
            }
            int t = opts[i].v + split_value(fs, fb, pair);
            if (t > best) {
                best = t;
                if (choice) {
                    choice[0] = s - opts[i].ds;
                    choice[1] = b - opts[i].db;
                    choice[2] = opts[i].js;
                    choice[3] = opts[i].jb;
                }
            }
        }
        PyMem_Free(heap);
    }
    *out = best;
    return 1;
}

/* HandEvaluator._best: best 胡息 over every use of the winning card (R25–R27),
 * −1 without a shape; −2 (with an exception set) on an error. With ``plan``
 * given: (fixed 胡息, rest, pair needed, use: 1 hand, 2 triple, 3 kan, 4 table). */
static long kernel_core(const Kernel *k, uint64_t packed, int table_huxi, int pair, int hand_ok,
                        int four_ok, int gain_up, int win, int self_drawn, long long *plan) {
    if (packed & FOURS) return -1; /* four in hand: it must already be a 提 (R12) */
    uint64_t mask = packed & (packed >> 1) & LOW, rest = packed;
    int fixed = table_huxi, best = -1, v, ok;
    if (mask) {
        rest = packed - 3 * mask;
        for (uint64_t m = mask; m; m &= m - 1) fixed += k->kan[__builtin_ctzll(m) / 3];
    }
#define REST(r, pr)                                                                      \
    do {                                                                                 \
        ok = rest_best(k, (r), (pr), &v, NULL);                                          \
        if (ok <= 0) {                                                                   \
            if (!ok) PyErr_SetString(PyExc_ValueError, "paohuzi.core._kernel: key outside the tables"); \
            else PyErr_NoMemory();                                                       \
            return -2;                                                                   \
        }                                                                                \
    } while (0)
#define PLAN(f, r, pr, how)                                                              \
    if (plan) {                                                                          \
        plan[0] = (f);                                                                   \
        plan[1] = (long long)(r);                                                        \
        plan[2] = (pr);                                                                  \
        plan[3] = (how);                                                                 \
    }
    if (hand_ok) {
        uint64_t r = rest + BIT(win);
        REST(r, pair);
        if (v >= 0) {
            best = fixed + v;
            PLAN(fixed, r, pair, 1);
        }
        if (((rest >> (3 * win)) & 7) == 2) {
            int f2 = fixed + (self_drawn ? k->wei : k->peng)[win];
            r = rest - 2 * BIT(win);
            REST(r, pair);
            if (v >= 0 && f2 + v > best) {
                best = f2 + v;
                PLAN(f2, r, pair, 2);
            }
        }
    }
    if (four_ok) {
        int gain, how;
        if ((mask >> (3 * win)) & 1) {
            gain = (self_drawn ? k->ti : k->pao)[win] - k->kan[win];
            how = 3;
        } else { /* a table 偎/碰 of the card (never both: only four copies) */
            gain = gain_up;
            how = 4;
        }
        if (gain >= 0) {
            REST(rest, 1);
            if (v >= 0 && fixed + gain + v > best) {
                best = fixed + gain + v;
                PLAN(fixed + gain, rest, 1, how);
            }
        }
    }
#undef REST
#undef PLAN
    return best;
}

/* -- arguments ------------------------------------------------------------- */

static int read_ints(PyObject *seq, int *out, Py_ssize_t n, const char *what) {
    PyObject *f = PySequence_Fast(seq, what);
    if (!f) return -1;
    if (PySequence_Fast_GET_SIZE(f) != n) {
        PyErr_Format(PyExc_ValueError, "%s: %zd values expected, got %zd", what, n,
                     PySequence_Fast_GET_SIZE(f));
        Py_DECREF(f);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(f, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(f);
            return -1;
        }
        if (v < -1000 || v > 1000) {
            PyErr_Format(PyExc_ValueError, "%s: %ld is out of range (-1000..1000)", what, v);
            Py_DECREF(f);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(f);
    return 0;
}

static int read_card(PyObject *o, int *out, const char *what) {
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v < 0 || v > 19) {
        PyErr_Format(PyExc_ValueError, "%s must be a card kind 0..19, got %ld", what, v);
        return -1;
    }
    *out = (int)v;
    return 0;
}

static int read_packed(PyObject *o, uint64_t *out) {
    if (!PyLong_Check(o)) {
        PyErr_SetString(PyExc_TypeError, "packed must be an int");
        return -1;
    }
    unsigned long long v = PyLong_AsUnsignedLongLong(o);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    if (v >> 60) {
        PyErr_SetString(PyExc_ValueError, "packed must fit 20 fields of 3 bits");
        return -1;
    }
    *out = v;
    return 0;
}

static int read_shape(PyObject *o, int *sh) {
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 3) {
        PyErr_SetString(PyExc_TypeError, "shape must be a tuple of 3 bools");
        return -1;
    }
    for (int i = 0; i < 3; i++) {
        int t = PyObject_IsTrue(PyTuple_GET_ITEM(o, i));
        if (t < 0) return -1;
        sh[i] = t;
    }
    return 0;
}

/* -- the type --------------------------------------------------------------- */

static void kernel_dealloc(Kernel *self) {
    for (int s = 0; s < 2; s++) PyMem_Free(self->size[s].e);
    Py_XDECREF(self->fallback);
    Py_XDECREF(self->position);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int fill_all(Size *t) {
    t->e = PyMem_Malloc(sizeof(Entry) * NKEYS);
    if (!t->e) return -1;
    for (int i = 0; i < NKEYS; i++) t->e[i].v[0] = t->e[i].v[1] = UNSET;
    for (int i = 0; i < N3; i++) { /* the recursion reaches every key below these */
        uint32_t key = 0;
        for (int p = 0, x = i; p < 10; p++, x /= 3) key |= (uint32_t)(x % 3) << (3 * p);
        size_fill(t, key);
    }
    for (int q = 0; q < 10; q++)
        for (int i = 0; i < N9; i++) {
            uint32_t key = 3u << (3 * q);
            for (int p = 0, x = i; p < 10; p++) {
                if (p == q) continue;
                key |= (uint32_t)(x % 3) << (3 * p);
                x /= 3;
            }
            size_fill(t, key);
        }
    return 0;
}

static PyObject *kernel_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    static char *kw[] = {"small", "big", "jiao", "peng", "wei", "kan", "pao", "ti",
                         "flat", "gain_pao", "gain_ti", "fallback", "position", NULL};
    PyObject *sz[2], *jiao, *peng, *wei, *kan, *pao, *ti, *flat, *gp, *gt, *fb;
    PyTypeObject *pt = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOOOOOOOOO|O!:Kernel", kw, &sz[0], &sz[1],
                                     &jiao, &peng, &wei, &kan, &pao, &ti, &flat, &gp, &gt, &fb,
                                     &PyType_Type, &pt))
        return NULL;
    if (!PyCallable_Check(fb)) {
        PyErr_SetString(PyExc_TypeError, "fallback must be callable");
        return NULL;
    }
    Kernel *self = (Kernel *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    for (int s = 0; s < 2; s++) { /* (run values of 8 句, 二七十, 10 将 values) */
        PyObject *run, *v2710, *pair;
        if (!PyArg_ParseTuple(sz[s], "OOO:size", &run, &v2710, &pair)) goto fail;
        if (read_ints(run, self->size[s].run, 8, "run values") < 0) goto fail;
        PyObject *one = PyTuple_Pack(1, v2710);
        if (!one) goto fail;
        int r = read_ints(one, &self->size[s].v2710, 1, "v2710");
        Py_DECREF(one);
        if (r < 0 || read_ints(pair, self->size[s].pair, 10, "pair values") < 0) goto fail;
    }
    if (read_ints(jiao, self->jiao, 10, "jiao") < 0 || read_ints(peng, self->peng, 20, "peng") < 0 ||
        read_ints(wei, self->wei, 20, "wei") < 0 || read_ints(kan, self->kan, 20, "kan") < 0 ||
        read_ints(pao, self->pao, 20, "pao") < 0 || read_ints(ti, self->ti, 20, "ti") < 0 ||
        read_ints(flat, self->flat, NMELD, "flat") < 0 ||
        read_ints(gp, self->gain_pao, NMELD, "gain_pao") < 0 ||
        read_ints(gt, self->gain_ti, NMELD, "gain_ti") < 0)
        goto fail;
    for (int s = 0; s < 2; s++)
        if (fill_all(&self->size[s]) < 0) {
            PyErr_NoMemory();
            goto fail;
        }
    Py_INCREF(fb);
    self->fallback = fb;
    Py_XINCREF(pt);
    self->position = pt;
    return (PyObject *)self;
fail:
    Py_DECREF(self);
    return NULL;
}

static PyObject *S_win, *S_packed, *S_table_keys, *S_up_key, *S_self_drawn, *S_shape;

/* A field of ``pos``: from ``dd`` (its instance dict, or NULL) when there, else
   through getattr. New reference. A Position keeps every field read here in its
   dict and no descriptor of the same name (the kernel is told the exact type). */
static PyObject *field(PyObject *dd, PyObject *pos, PyObject *name) {
    if (dd) {
        PyObject *o = PyDict_GetItemWithError(dd, name);
        if (o) return Py_NewRef(o);
        if (PyErr_Occurred()) return NULL;
    }
    return PyObject_GetAttr(pos, name);
}

/* The instance dict of an exact Position (new reference), else NULL (no error). */
static PyObject *dict_of(const Kernel *self, PyObject *pos) {
    if (!self->position || Py_TYPE(pos) != self->position) return NULL;
    PyObject *dd = PyObject_GenericGetDict(pos, NULL);
    if (!dd) PyErr_Clear(); /* (getattr then says what is wrong) */
    return dd;
}

/* The fields Position derives once, read for best/plan_of: 1 with them read, 0 for a
   position without a winning card (mandatory 天胡, R28: the Python path), −1 on error. */
static int read_fields(Kernel *self, PyObject *pos, PyObject *dd, uint64_t *packed, int *huxi,
                       int *sh, int *up, int *win, int *sd, long *top) {
    PyObject *o = field(dd, pos, S_win);
    if (!o) return -1;
    if (o == Py_None) {
        Py_DECREF(o);
        return 0;
    }
    int r = read_card(o, win, "win");
    Py_DECREF(o);
    if (r < 0) return -1;
    if (!(o = field(dd, pos, S_packed))) return -1;
    r = read_packed(o, packed);
    Py_DECREF(o);
    if (r < 0) return -1;
    if (!(o = field(dd, pos, S_self_drawn))) return -1;
    *sd = PyObject_IsTrue(o);
    Py_DECREF(o);
    if (*sd < 0) return -1;
    if (!(o = field(dd, pos, S_shape))) return -1;
    r = read_shape(o, sh);
    Py_DECREF(o);
    if (r < 0) return -1;
    if (!(o = field(dd, pos, S_table_keys))) return -1;
    if (!PyTuple_Check(o)) {
        Py_DECREF(o);
        PyErr_SetString(PyExc_TypeError, "table_keys must be a tuple");
        return -1;
    }
    *huxi = 0;
    long most = -1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(o); i++) {
        long key = PyLong_AsLong(PyTuple_GET_ITEM(o, i));
        if (key < 0 || key >= NMELD) {
            Py_DECREF(o);
            if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "table key %ld out of range", key);
            return -1;
        }
        *huxi += self->flat[key];
        if (key > most) most = key;
    }
    if (top) *top = most;
    Py_DECREF(o);
    if (!(o = field(dd, pos, S_up_key))) return -1;
    long uk = PyLong_AsLong(o);
    Py_DECREF(o);
    if (uk == -1 && PyErr_Occurred()) return -1;
    if (uk >= NMELD) {
        PyErr_Format(PyExc_ValueError, "up_key %ld out of range", uk);
        return -1;
    }
    *up = uk >= 0 ? (*sd ? self->gain_ti : self->gain_pao)[uk] : -1;
    return 1;
}

static int read_pos(Kernel *self, PyObject *pos, uint64_t *packed, int *huxi, int *sh, int *up,
                    int *win, int *sd, long *top) {
    PyObject *dd = dict_of(self, pos);
    int r = read_fields(self, pos, dd, packed, huxi, sh, up, win, sd, top);
    Py_XDECREF(dd);
    return r;
}

/* best(position): HandEvaluator.best. */
static PyObject *kernel_best(Kernel *self, PyObject *pos) {
    int win, sd, sh[3], huxi, up;
    uint64_t packed;
    int r = read_pos(self, pos, &packed, &huxi, sh, &up, &win, &sd, NULL);
    if (r < 0) return NULL;
    if (r == 0) return PyObject_CallOneArg(self->fallback, pos);
    long v = kernel_core(self, packed, huxi, sh[0], sh[1], sh[2], up, win, sd, NULL);
    return v == -2 ? NULL : PyLong_FromLong(v);
}

static int core_args(PyObject *const *args, Py_ssize_t n, uint64_t *packed, int *huxi, int *sh,
                     int *up, int *win, int *sd) {
    if (n != 6) {
        PyErr_Format(PyExc_TypeError, "6 arguments expected, got %zd", n);
        return -1;
    }
    long h, u;
    if (read_packed(args[0], packed) < 0) return -1;
    if ((h = PyLong_AsLong(args[1])) == -1 && PyErr_Occurred()) return -1;
    if (read_shape(args[2], sh) < 0) return -1;
    if ((u = PyLong_AsLong(args[3])) == -1 && PyErr_Occurred()) return -1;
    if (read_card(args[4], win, "win") < 0) return -1;
    if ((*sd = PyObject_IsTrue(args[5])) < 0) return -1;
    if (h < -100000 || h > 100000 || u < -1 || u > 1000) {
        PyErr_SetString(PyExc_ValueError, "table 胡息 or gain out of range");
        return -1;
    }
    *huxi = (int)h;
    *up = (int)u;
    return 0;
}

/* core(packed, table_huxi, shape, gain_up, win, self_drawn): HandEvaluator._best. */
static PyObject *kernel_core_py(Kernel *self, PyObject *const *args, Py_ssize_t n) {
    uint64_t packed;
    int huxi, sh[3], up, win, sd;
    if (core_args(args, n, &packed, &huxi, sh, &up, &win, &sd) < 0) return NULL;
    long v = kernel_core(self, packed, huxi, sh[0], sh[1], sh[2], up, win, sd, NULL);
    return v == -2 ? NULL : PyLong_FromLong(v);
}

static PyObject *S_how[5];  /* plan's use of the winning card, interned */

/* HandEvaluator.plan's plan: (fixed 胡息, rest, pair needed, use of the winning card). */
static PyObject *plan_tuple(const long long *plan) {
    return Py_BuildValue("(LKOO)", plan[0], (unsigned long long)plan[1],
                         plan[2] ? Py_True : Py_False, S_how[plan[3]]);
}

static PyObject *plan_result(Kernel *self, uint64_t packed, int huxi, const int *sh, int up,
                             int win, int sd) {
    long long plan[4] = {0, 0, 0, 0};
    long v = kernel_core(self, packed, huxi, sh[0], sh[1], sh[2], up, win, sd, plan);
    if (v == -2) return NULL;
    if (!plan[3]) return Py_BuildValue("(lO)", v, Py_None);
    PyObject *t = plan_tuple(plan);
    return t ? Py_BuildValue("(lN)", v, t) : NULL;
}

/* plan(…same as core): (best, (fixed, rest, pair, use) or None) — for analyse. */
static PyObject *kernel_plan(Kernel *self, PyObject *const *args, Py_ssize_t n) {
    uint64_t packed;
    int huxi, sh[3], up, win, sd;
    if (core_args(args, n, &packed, &huxi, sh, &up, &win, &sd) < 0) return NULL;
    return plan_result(self, packed, huxi, sh, up, win, sd);
}

/* plan_of(position): HandEvaluator.plan, the fields read here as best reads them. */
static PyObject *kernel_plan_of(Kernel *self, PyObject *pos) {
    uint64_t packed;
    int huxi, sh[3], up, win, sd;
    int r = read_pos(self, pos, &packed, &huxi, sh, &up, &win, &sd, NULL);
    if (r < 0) return NULL;
    if (r == 0) {
        PyErr_SetString(PyExc_ValueError, "plan_of: a position without a winning card");
        return NULL;
    }
    return plan_result(self, packed, huxi, sh, up, win, sd);
}

/* rest(rest, pair): HandEvaluator._rest with its choice: (best, (s, b, js, jb)). */
static PyObject *kernel_rest(Kernel *self, PyObject *args) {
    PyObject *ro;
    int pair, v;
    uint64_t rest, choice[4];
    if (!PyArg_ParseTuple(args, "Op:rest", &ro, &pair) || read_packed(ro, &rest) < 0) return NULL;
    int ok = rest_best(self, rest, pair, &v, choice);
    if (ok < 0) return PyErr_NoMemory();
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "rest: a size holds a count of 4+ or two of 3");
        return NULL;
    }
    return Py_BuildValue("(i(KKKK))", v < 0 ? -1 : v, (unsigned long long)choice[0],
                         (unsigned long long)choice[1], (unsigned long long)choice[2],
                         (unsigned long long)choice[3]);
}

/* entry(size, key): (best without, with the 将) of a one-size key, −1 for none. */
static PyObject *kernel_entry(Kernel *self, PyObject *args) {
    int s;
    unsigned long key;
    uint32_t g1, g2;
    if (!PyArg_ParseTuple(args, "ik:entry", &s, &key)) return NULL;
    if (s < 0 || s > 1 || key >> 30) {
        PyErr_SetString(PyExc_ValueError, "entry: size 0 or 1 and a 30-bit key");
        return NULL;
    }
    int i = key_index((uint32_t)key, &g1, &g2);
    if (i < 0) Py_RETURN_NONE;
    const Entry *e = &self->size[s].e[i];
    return Py_BuildValue("(ii)", e->v[0] < 0 ? -1 : e->v[0], e->v[1] < 0 ? -1 : e->v[1]);
}

static PyMethodDef kernel_methods[] = {
    {"best", (PyCFunction)kernel_best, METH_O, "best(position) -> int: HandEvaluator.best"},
    {"core", (PyCFunction)(void (*)(void))kernel_core_py, METH_FASTCALL,
     "core(packed, table_huxi, shape, gain_up, win, self_drawn) -> int: HandEvaluator._best"},
    {"plan", (PyCFunction)(void (*)(void))kernel_plan, METH_FASTCALL,
     "plan(...same as core) -> (best, (fixed, rest, pair, use) | None)"},
    {"plan_of", (PyCFunction)kernel_plan_of, METH_O,
     "plan_of(position) -> plan(...) of a position with a winning card"},
    {"rest", (PyCFunction)kernel_rest, METH_VARARGS,
     "rest(rest, pair) -> (best or -1, (small key, big key, jiao 2-small, jiao 2-big))"},
    {"entry", (PyCFunction)kernel_entry, METH_VARARGS,
     "entry(size, key) -> (best without, with the pair) | None: the size table"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject KernelType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "paohuzi.core._kernel.Kernel",
    .tp_basicsize = sizeof(Kernel),
    .tp_dealloc = (destructor)kernel_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The evaluator's tables for one 胡息 grid (see core/evaluator.py).",
    .tp_methods = kernel_methods,
    .tp_new = kernel_new,
};

/* ---- 局面 read straight (Position.from_dict's common form, core/position.py _read) ----
 * The same checks and fields as _read, card counts in arrays instead of its packed
 * weights. Anything _read hands to the constructor's path (None) is None here too;
 * tests/test_kernel.py compares the two field for field. */
typedef struct {
    PyObject_HEAD
    PyObject *words;       /* str → Card: a code or glyph that is one card (no 王) */
    PyObject *melds;       /* meld text → (Group, key, weight, cards): _read's cache */
    PyObject *meld;        /* text → that entry or None (fills the cache) */
    PyObject *shapes;      /* shape_flags memo, keyed as _read keys it */
    PyObject *shape_flags; /* (n, melds, fours, target) → (bool, bool, bool) */
    PyObject *fields;      /* the keys the common form may have */
    PyTypeObject *position;
    uint32_t colour[20];   /* a card's (red, big, small) counts, a byte each */
    uint32_t four_rows;    /* MELD_ROWS rows that are 跑/提, as bits */
    int8_t code[4][11];    /* x/X/d/D + 1…10 → the card words maps it to, −1 none */
} Reader;

static PyObject *F_hand, *F_table, *F_last_card, *F_tianhu, *F_dihu, *F_extra, *F_hand_size,
    *F_xing, *F_wang, *F_win_wang, *F_pattern, *F_fours, *F_card_bits, *F_facts, *EMPTY;

static void reader_dealloc(Reader *r) {
    Py_XDECREF(r->words);
    Py_XDECREF(r->melds);
    Py_XDECREF(r->meld);
    Py_XDECREF(r->shapes);
    Py_XDECREF(r->shape_flags);
    Py_XDECREF(r->fields);
    Py_XDECREF(r->position);
    Py_TYPE(r)->tp_free((PyObject *)r);
}

static PyObject *reader_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    static char *kw[] = {"words", "melds", "meld", "shapes", "shape_flags", "fields",
                         "position", "colour", "four_rows", NULL};
    PyObject *words, *melds, *meld, *shapes, *sf, *fields, *colour;
    PyTypeObject *position;
    unsigned long four_rows;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!O!OO!OO!O!Ok:Reader", kw, &PyDict_Type, &words,
                                     &PyDict_Type, &melds, &meld, &PyDict_Type, &shapes, &sf,
                                     &PyFrozenSet_Type, &fields, &PyType_Type, &position, &colour,
                                     &four_rows))
        return NULL;
    PyObject *seq = PySequence_Fast(colour, "colour must be a sequence of 20 ints");
    if (!seq) return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != 20) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "colour must hold 20 ints");
        return NULL;
    }
    Reader *r = (Reader *)type->tp_alloc(type, 0);
    if (!r) {
        Py_DECREF(seq);
        return NULL;
    }
    for (int c = 0; c < 20; c++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, c));
        if (v < 0 || v > 0xFFFFFF) {
            Py_DECREF(seq);
            Py_DECREF(r);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "colour out of range");
            return NULL;
        }
        r->colour[c] = (uint32_t)v;
    }
    Py_DECREF(seq);
    static const char lead[4] = {'x', 'X', 'd', 'D'};
    for (int a = 0; a < 4; a++)
        for (int k = 1; k <= 10; k++) { /* the ASCII codes' cards, as words has them */
            char w[4];
            snprintf(w, sizeof w, "%c%d", lead[a], k);
            PyObject *o = PyDict_GetItemString(words, w);
            long v = o && PyLong_Check(o) ? PyLong_AsLong(o) : -1;
            r->code[a][k] = (int8_t)(v >= 0 && v < 20 ? v : -1);
        }
    r->code[0][0] = r->code[1][0] = r->code[2][0] = r->code[3][0] = -1;
    Py_INCREF(words), Py_INCREF(melds), Py_INCREF(meld), Py_INCREF(shapes), Py_INCREF(sf);
    Py_INCREF(fields), Py_INCREF(position);
    r->words = words, r->melds = melds, r->meld = meld, r->shapes = shapes;
    r->shape_flags = sf, r->fields = fields, r->position = position;
    r->four_rows = (uint32_t)four_rows;
    return (PyObject *)r;
}

/* The card a word names, its kind in *c (1), or not one card (0), or an error (−1). */
static int word_card(Reader *r, PyObject *w, PyObject **card, int *c) {
    PyObject *o = PyDict_GetItemWithError(r->words, w);
    if (!o) return PyErr_Occurred() ? -1 : 0;
    long v = PyLong_AsLong(o);
    if (v < 0 || v > 19) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a card word maps off the cards");
        return -1;
    }
    if (card) *card = o;
    *c = (int)v;
    return 1;
}

/* str.split()'s whitespace among ASCII characters. */
static inline int ascii_space(unsigned char ch) {
    return ch == ' ' || (ch >= 0x09 && ch <= 0x0D) || (ch >= 0x1C && ch <= 0x1F);
}

/* hand_counts for the usual ASCII codes between spaces (x7 d10 …), read in place; −2
 * for anything else (hc untouched), which the general path reads. */
static Py_ssize_t ascii_counts(const Reader *r, PyObject *hand, int *hc) {
    if (!PyUnicode_IS_ASCII(hand)) return -2;
    const unsigned char *s = PyUnicode_1BYTE_DATA(hand);
    Py_ssize_t len = PyUnicode_GET_LENGTH(hand), i = 0, n = 0;
    int got[20] = {0};
    while (i < len) {
        if (ascii_space(s[i])) {
            i++;
            continue;
        }
        Py_ssize_t j = i;
        while (j < len && !ascii_space(s[j])) j++;
        int a = s[i] == 'x' ? 0 : s[i] == 'X' ? 1 : s[i] == 'd' ? 2 : s[i] == 'D' ? 3 : -1, k;
        if (a < 0 || j - i < 2 || j - i > 3 || s[i + 1] < '1' || s[i + 1] > '9') return -2;
        k = s[i + 1] - '0';
        if (j - i == 3 && (k != 1 || s[i + 2] != '0')) return -2;
        k = j - i == 3 ? 10 : k;
        int c = r->code[a][k];
        if (c < 0) return -2;
        got[c]++, n++;
        i = j;
    }
    memcpy(hc, got, sizeof got);
    return n;
}

/* Counts the hand's words into hc; the number of cards, or −2 for "not the common
 * form" (None), or −1 on error. One word that is no card is read as glyphs run together. */
static Py_ssize_t hand_counts(Reader *r, PyObject *hand, int *hc) {
    Py_ssize_t fast = ascii_counts(r, hand, hc);
    if (fast != -2) return fast;
    PyObject *words = PyUnicode_Split(hand, NULL, -1);
    if (!words) return -1;
    Py_ssize_t n = PyList_GET_SIZE(words), out = n;
    for (Py_ssize_t i = 0; i < n; i++) {
        int c, k = word_card(r, PyList_GET_ITEM(words, i), NULL, &c);
        if (k < 0) {
            Py_DECREF(words);
            return -1;
        }
        if (k == 0) {
            memset(hc, 0, 20 * sizeof(int));
            out = -2;
            break;
        }
        hc[c]++;
    }
    if (out == -2 && n == 1) { /* glyphs run together: each character one card */
        PyObject *w = PyList_GET_ITEM(words, 0);
        Py_ssize_t len = PyUnicode_GET_LENGTH(w);
        out = len;
        for (Py_ssize_t i = 0; i < len; i++) {
            PyObject *ch = PyUnicode_Substring(w, i, i + 1);
            int c, k = ch ? word_card(r, ch, NULL, &c) : -1;
            Py_XDECREF(ch);
            if (k <= 0) {
                out = k < 0 ? -1 : -2;
                break;
            }
            hc[c]++;
        }
    }
    Py_DECREF(words);
    return out;
}

static int is_bool(PyObject *o) { return o == Py_True || o == Py_False; }

/* d.get(key, default) of a dict, borrowed; NULL on error. */
static PyObject *get(PyObject *d, PyObject *key, PyObject *dflt) {
    PyObject *o = PyDict_GetItemWithError(d, key);
    return o ? o : PyErr_Occurred() ? NULL : dflt;
}

static PyObject *build(Reader *r, PyObject *d, PyObject *hs, Py_ssize_t n, int *hc, int *tc,
                       int win, PyObject *win_card, PyObject **entries, int *keys,
                       Py_ssize_t nt, int size, int fours, uint32_t colour);

static PyObject *reader_call(Reader *r, PyObject *args, PyObject *kwds) {
    PyObject *d, *hs;
    if (kwds && PyDict_GET_SIZE(kwds)) {
        PyErr_SetString(PyExc_TypeError, "read(d, hand_size) takes no keywords");
        return NULL;
    }
    if (!PyArg_UnpackTuple(args, "read", 2, 2, &d, &hs)) return NULL;
    if (!PyDict_CheckExact(d) || !PyLong_CheckExact(hs)) Py_RETURN_NONE;
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(d, &pos, &key, &value)) {
        int in = PySet_Contains(r->fields, key);
        if (in < 0) return NULL;
        if (!in) Py_RETURN_NONE;
    }
    PyObject *hand = get(d, F_hand, Py_None), *win_s = get(d, S_win, Py_None);
    if (!hand || !win_s) return NULL;
    if (!PyUnicode_CheckExact(hand) || !PyUnicode_CheckExact(win_s)) Py_RETURN_NONE;
    int hc[20] = {0}, tc[20], win, c;
    Py_ssize_t n = hand_counts(r, hand, hc);
    if (n == -1) return NULL;
    if (n == -2) Py_RETURN_NONE;
    PyObject *win_card = NULL;
    int k = word_card(r, win_s, &win_card, &win);
    if (k < 0) return NULL;
    if (k == 0) { /* one word between spaces, else not one card */
        PyObject *ws = PyUnicode_Split(win_s, NULL, -1);
        if (!ws) return NULL;
        k = PyList_GET_SIZE(ws) == 1 ? word_card(r, PyList_GET_ITEM(ws, 0), &win_card, &win) : 0;
        Py_DECREF(ws);
        if (k < 0) return NULL;
        if (k == 0) Py_RETURN_NONE;
    }
    PyObject *table = get(d, F_table, NULL);
    if (!table && PyErr_Occurred()) return NULL;
    if (table && (!PyList_CheckExact(table) || PyList_GET_SIZE(table) > 7)) Py_RETURN_NONE;
    Py_ssize_t nt = table ? PyList_GET_SIZE(table) : 0, ne = 0;
    /* owned: a meld read below may clear the cache (it is bounded) */
    PyObject *entries[7], *result = NULL;
    int keys[7], size = 0, fours = 0;
    memcpy(tc, hc, sizeof tc);
    uint32_t colour = 0;
    for (Py_ssize_t i = 0; i < nt; i++) {
        PyObject *t = PyList_GET_ITEM(table, i), *e = NULL;
        if (!PyUnicode_CheckExact(t)) goto none; /* (a str subclass too: the constructor's path) */
        if ((e = PyDict_GetItemWithError(r->melds, t))) Py_INCREF(e);
        else if (PyErr_Occurred() || !(e = PyObject_CallOneArg(r->meld, t))) goto done;
        if (e == Py_None) {
            Py_DECREF(e);
            goto none;
        }
        entries[ne++] = e;
        if (!PyTuple_CheckExact(e) || PyTuple_GET_SIZE(e) != 4 || !PyTuple_CheckExact(PyTuple_GET_ITEM(e, 3))) {
            PyErr_SetString(PyExc_TypeError, "a meld entry must be (Group, key, weight, cards)");
            goto done;
        }
        long key = PyLong_AsLong(PyTuple_GET_ITEM(e, 1));
        if (key < 0 || key >= NMELD) {
            if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "meld key %ld out of range", key);
            goto done;
        }
        PyObject *cards = PyTuple_GET_ITEM(e, 3);
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(cards); j++) {
            if (read_card(PyTuple_GET_ITEM(cards, j), &c, "a meld's card") < 0) goto done;
            tc[c]++;
            colour += r->colour[c];
        }
        size += (int)PyTuple_GET_SIZE(cards);
        fours += r->four_rows >> (key / 20) & 1;
        keys[i] = (int)key;
    }
    result = build(r, d, hs, n, hc, tc, win, win_card, entries, keys, nt, size, fours, colour);
    goto done;
none:
    result = Py_None;
    Py_INCREF(result);
done:
    while (ne) Py_DECREF(entries[--ne]);
    return result;
}

/* The rest of reader_call, the table read: flags, counts, checks, the Position. */
static PyObject *build(Reader *r, PyObject *d, PyObject *hs, Py_ssize_t n, int *hc, int *tc,
                       int win, PyObject *win_card, PyObject **entries, int *keys,
                       Py_ssize_t nt, int size, int fours, uint32_t colour) {
    int c, held;
    PyObject *flag[4] = {NULL, NULL, NULL, NULL}, *fkey[4] = {S_self_drawn, F_last_card, F_tianhu, F_dihu};
    for (int f = 0; f < 4; f++) {
        if (!(flag[f] = get(d, fkey[f], Py_False))) return NULL;
        if (!is_bool(flag[f])) Py_RETURN_NONE;
    }
    PyObject *extra = get(d, F_extra, NULL);
    if (!extra && PyErr_Occurred()) return NULL;
    if (extra && !PyDict_CheckExact(extra)) Py_RETURN_NONE;
    int overflow;
    long long hand_size = PyLong_AsLongLongAndOverflow(hs, &overflow);
    if (hand_size == -1 && PyErr_Occurred()) return NULL;
    held = (int)n + size;
    if (overflow || held != hand_size + (fours > 1 ? fours - 1 : 0) || held > 27) Py_RETURN_NONE; /* R17 */
    tc[win]++;
    uint64_t packed = 0, bits = 0;
    for (c = 0; c < 20; c++) {
        if (hc[c] >= 4 || tc[c] >= 5) Py_RETURN_NONE; /* four alike in hand (R12), five held (R1) */
        packed += (uint64_t)hc[c] << 3 * c;
        bits += (uint64_t)tc[c] << 3 * c;
        colour += (uint32_t)hc[c] * r->colour[c];
    }
    colour += r->colour[win];
    int up_key = -1;
    for (Py_ssize_t i = 0; i < nt; i++)
        if (keys[i] < 60 && keys[i] % 20 == win) up_key = keys[i]; /* rows 0–2: 碰, 偎, 臭偎 */
    long long facts = (long long)colour << 5 | (flag[0] == Py_True) | (flag[1] == Py_True) << 1 |
                      (flag[2] == Py_True) << 2 | (flag[3] == Py_True) << 3 | (n == 1) << 4;
    long long m = n | nt << 8 | fours << 16 | hand_size << 24;
    /* Everything checked: the objects (an error from here on is a real one). */
    PyObject *p = NULL, *dd = NULL, *groups = NULL, *tkeys = NULL, *shape = NULL, *ext = NULL, *o;
    PyObject *mk = PyLong_FromLongLong(m);
    if (!mk) return NULL;
    shape = PyDict_GetItemWithError(r->shapes, mk);
    if (shape) Py_INCREF(shape);
    else if (!PyErr_Occurred()) {
        shape = PyObject_CallFunction(r->shape_flags, "niiL", n, (int)nt, fours, (hand_size + 1) / 3);
        if (shape && PyDict_SetItem(r->shapes, mk, shape) < 0) Py_CLEAR(shape);
    }
    Py_DECREF(mk);
    if (!shape) return NULL;
    if (!(groups = PyTuple_New(nt)) || !(tkeys = PyTuple_New(nt))) goto fail;
    for (Py_ssize_t i = 0; i < nt; i++) {
        o = PyTuple_GET_ITEM(entries[i], 0);
        Py_INCREF(o);
        PyTuple_SET_ITEM(groups, i, o);
        o = PyTuple_GET_ITEM(entries[i], 1);
        Py_INCREF(o);
        PyTuple_SET_ITEM(tkeys, i, o);
    }
    if (extra && PyDict_GET_SIZE(extra)) { /* tuple(sorted(extra.items())) */
        PyObject *items = PyDict_Items(extra);
        if (!items) goto fail;
        if (PyList_Sort(items) < 0) {
            Py_DECREF(items);
            goto fail;
        }
        ext = PyList_AsTuple(items);
        Py_DECREF(items);
        if (!ext) goto fail;
    } else {
        ext = EMPTY;
        Py_INCREF(ext);
    }
    if (!(p = PyBaseObject_Type.tp_new(r->position, EMPTY, NULL))) goto fail;
    if (!(dd = PyObject_GenericGetDict(p, NULL))) goto fail;
    /* the fields in the constructor's order, ``hand`` made when first read; the ints
       made here are owned (stolen by set_field) */
    PyObject *key[] = {F_table, S_win, S_self_drawn, F_last_card, F_tianhu, F_dihu,
                       F_hand_size, F_extra, F_xing, F_wang, F_win_wang, F_pattern,
                       F_fours, S_packed, S_table_keys, S_up_key, S_shape, F_card_bits,
                       F_facts};
    PyObject *val[] = {groups, win_card, flag[0], flag[1], flag[2], flag[3], hs, ext, EMPTY,
                       NULL, Py_False, Py_None, NULL, NULL, tkeys, NULL, shape, NULL, NULL};
    PyObject *made[] = {PyLong_FromLong(0), PyLong_FromLong(fours),
                        PyLong_FromUnsignedLongLong(packed), PyLong_FromLong(up_key),
                        PyLong_FromUnsignedLongLong(bits), PyLong_FromLongLong(facts)};
    int slot[] = {9, 12, 13, 15, 17, 18}, bad = 0;
    for (int i = 0; i < 6; i++) {
        bad |= !made[i];
        val[slot[i]] = made[i];
    }
    for (int i = 0; i < 19 && !bad; i++) bad = PyDict_SetItem(dd, key[i], val[i]) < 0;
    for (int i = 0; i < 6; i++) Py_XDECREF(made[i]);
    if (bad) goto fail;
    Py_DECREF(dd), Py_DECREF(groups), Py_DECREF(tkeys), Py_DECREF(shape), Py_DECREF(ext);
    return p;
fail:
    Py_XDECREF(p), Py_XDECREF(dd), Py_XDECREF(groups), Py_XDECREF(tkeys), Py_XDECREF(shape);
    Py_XDECREF(ext);
    return NULL;
}

static PyTypeObject ReaderType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "paohuzi.core._kernel.Reader",
    .tp_basicsize = sizeof(Reader),
    .tp_dealloc = (destructor)reader_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Reader(...)(d, hand_size): Position.from_dict's common form read straight "
              "(core/position.py _read), or None.",
    .tp_call = (ternaryfunc)reader_call,
    .tp_new = reader_new,
};


/* ---- 算分 (suànfēn): the settlement's common path (core/scoring.py settle) ----
 * For rules that score the most-胡息 split (R26) and whose only 名堂 reading the split
 * is 对子胡, a position with a winning card and no 王 or 醒 settles here: the plan
 * (kernel_core), the memo key settle makes (flags, colour 名堂, 对子胡) and the
 * _Shared result. The templates (each a Settlement without its 门子) are the Python
 * path's: the same objects as its _Scorer. A template not made yet for a key and 胡息
 * is asked of ``miss`` (scoring._missed); a colour count not asked yet, or a position
 * this path does not take, answers None, and the caller runs settle's Python — so
 * every value a settlement shows is still made by the Python code, and
 * tests/test_kernel.py compares the two on every preset. */
typedef struct {
    PyObject_HEAD
    Kernel *kernel;
    PyObject *rules;
    PyObject *ids[3];      /* per count (red, big, small): its colour 名堂's id, −1 unknown */
    PyObject *won, *below; /* (key, 胡息, 荒庄) → template; 胡息 → template below 起胡 */
    PyObject *not_winning; /* the one settlement of every hand without a shape */
    PyObject *miss;        /* (rules, position, key, 胡息, 荒庄, plan) → the won template */
    PyTypeObject *shared;  /* scoring._Shared */
    PyObject *slot[4];     /* its member descriptors: _t, _rules, _p, _plan */
    int min_huxi, colour;  /* 起胡; whether any colour 名堂 counts */
    int dz, dz_fan;        /* 对子胡: preset index (−1: not counted) and its 番 */
    long chi_keys;         /* Group.key of a table 吃 is at least this */
} Settler;

static void settler_dealloc(Settler *s) {
    Py_XDECREF(s->kernel);
    Py_XDECREF(s->rules);
    for (int i = 0; i < 3; i++) Py_XDECREF(s->ids[i]);
    Py_XDECREF(s->won);
    Py_XDECREF(s->below);
    Py_XDECREF(s->not_winning);
    Py_XDECREF(s->miss);
    Py_XDECREF(s->shared);
    for (int i = 0; i < 4; i++) Py_XDECREF(s->slot[i]);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static PyObject *settler_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    static char *kw[] = {"kernel", "rules", "min_huxi", "ids", "won", "below",
                         "not_winning", "shared", "colour", "duizihu", "chi_keys", "miss", NULL};
    Kernel *kernel;
    PyObject *rules, *ids, *won, *below, *nw, *dz, *miss;
    PyTypeObject *shared;
    int min_huxi, colour;
    long chi_keys;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!OiO!O!O!OO!pOlO:Settler", kw, &KernelType,
                                     &kernel, &rules, &min_huxi, &PyTuple_Type, &ids,
                                     &PyDict_Type, &won, &PyDict_Type, &below, &nw, &PyType_Type,
                                     &shared, &colour, &dz, &chi_keys, &miss))
        return NULL;
    if (!PyCallable_Check(miss)) {
        PyErr_SetString(PyExc_TypeError, "miss must be callable");
        return NULL;
    }
    int dzi = -1, dzf = 0;
    if (dz != Py_None && (!PyTuple_Check(dz) || !PyArg_ParseTuple(dz, "ii", &dzi, &dzf))) {
        PyErr_SetString(PyExc_TypeError, "duizihu must be None or (index, fan)");
        return NULL;
    }
    if (dz != Py_None && dzi < 0) {
        PyErr_SetString(PyExc_ValueError, "duizihu: a preset index is not negative");
        return NULL;
    }
    if (PyTuple_GET_SIZE(ids) != 3) {
        PyErr_SetString(PyExc_TypeError, "ids must be a tuple of 3 lists");
        return NULL;
    }
    for (int i = 0; i < 3; i++)
        if (!PyList_Check(PyTuple_GET_ITEM(ids, i))) {
            PyErr_SetString(PyExc_TypeError, "ids must be a tuple of 3 lists");
            return NULL;
        }
    Settler *s = (Settler *)type->tp_alloc(type, 0);
    if (!s) return NULL;
    for (int i = 0; i < 3; i++) s->ids[i] = Py_NewRef(PyTuple_GET_ITEM(ids, i));
    static const char *names[] = {"_t", "_rules", "_p", "_plan"};
    for (int i = 0; i < 4; i++) {
        PyObject *d = PyObject_GetAttrString((PyObject *)shared, names[i]);
        s->slot[i] = d;
        if (!d && PyErr_ExceptionMatches(PyExc_AttributeError)) PyErr_Clear();
        else if (!d) goto fail;
        if (!d || !Py_TYPE(d)->tp_descr_set) {
            PyErr_Format(PyExc_TypeError, "shared: %s is not a slot", names[i]);
            goto fail;
        }
    }
    Py_INCREF(kernel), Py_INCREF(rules), Py_INCREF(won), Py_INCREF(below);
    Py_INCREF(nw), Py_INCREF(shared), Py_INCREF(miss);
    s->miss = miss, s->kernel = kernel, s->rules = rules, s->won = won, s->below = below;
    s->not_winning = nw, s->shared = shared;
    s->min_huxi = min_huxi, s->colour = colour, s->dz = dzi, s->dz_fan = dzf;
    s->chi_keys = chi_keys;
    return (PyObject *)s;
fail:
    Py_DECREF(s);
    return NULL;
}

/* A _Shared of template t, as its __init__ makes it but for the plan: None, asked
   again if the 门子 are ever read (the plan tuple would cost a fifth of the path). */
static PyObject *shared_new(Settler *s, PyObject *t, PyObject *pos) {
    PyObject *o = s->shared->tp_alloc(s->shared, 0);
    if (!o) return NULL;
    PyObject *v[4] = {t, s->rules, pos, Py_None};
    for (int i = 0; i < 4; i++)
        if (Py_TYPE(s->slot[i])->tp_descr_set(s->slot[i], o, v[i]) < 0) {
            Py_DECREF(o);
            return NULL;
        }
    return o;
}

/* A field of the position that must be falsy for this path: 1 falsy, 0 not, −1 error. */
static int absent(PyObject *dd, PyObject *pos, PyObject *name) {
    PyObject *o = field(dd, pos, name);
    if (!o) return -1;
    int t = PyObject_IsTrue(o);
    Py_DECREF(o);
    return t < 0 ? -1 : !t;
}

/* dict[key] with a new reference, NULL with no error set when missing. */
static PyObject *lookup(PyObject *d, PyObject *key) {
    if (!key) return NULL;
    PyObject *v = PyDict_GetItemWithError(d, key);
    Py_DECREF(key);
    Py_XINCREF(v);
    return v;
}

/* 对子胡 (DuiziHu.measure with the plan): no 吃 on the table, no lone concealed card
 * but of the winning card's kind, and nothing left for 句/绞 but the 将 pair. */
static int duizihu(const Settler *s, uint64_t packed, long top, int win, uint64_t rest) {
    if (top >= s->chi_keys) return 0;
    if (packed & ~(packed >> 1) & ~(packed >> 2) & LOW & ~BIT(win)) return 0;
    return rest == 0 || (!(rest & (rest - 1)) && (63 - __builtin_clzll(rest)) % 3 == 1);
}

/* settle(position, huang): scoring.settle's common path, or None ("ask Python"). */
static PyObject *settler_settle(Settler *s, PyObject *const *args, Py_ssize_t n) {
    if (n != 2) {
        PyErr_SetString(PyExc_TypeError, "settle(position, huang) takes 2 arguments");
        return NULL;
    }
    PyObject *pos = args[0], *huang = args[1], *dd = dict_of(s->kernel, pos);
    PyObject *t, *out = NULL, *key = NULL;
    int a;
    if ((a = absent(dd, pos, F_wang)) <= 0 || (a = absent(dd, pos, F_win_wang)) <= 0 ||
        (a = absent(dd, pos, F_xing)) <= 0)
        goto done; /* 王 or 醒: the Python path (None), or an error */
    uint64_t packed;
    int huxi, sh[3], up, win, sd;
    long top;
    int r = read_fields(s->kernel, pos, dd, &packed, &huxi, sh, &up, &win, &sd, &top);
    if (r <= 0) goto done; /* a mandatory 天胡: the Python path */
    long long plan[4] = {0, 0, 0, 0};
    long v = kernel_core(s->kernel, packed, huxi, sh[0], sh[1], sh[2], up, win, sd, plan);
    if (v == -2) goto done;
    if (!plan[3]) {
        out = Py_NewRef(s->not_winning);
        goto done;
    }
    if (v < s->min_huxi) {
        t = lookup(s->below, PyLong_FromLong(v));
    } else {
        PyObject *fo = field(dd, pos, F_facts);
        if (!fo) goto done;
        long long facts = PyLong_AsLongLong(fo);
        Py_DECREF(fo);
        if (facts == -1 && PyErr_Occurred()) goto done;
        long long k = facts & 31;
        if (s->colour) /* scoring._colour_ids: a byte each above the flags */
            for (int a = 0; a < 3; a++) {
                static const int at[3] = {21, 13, 5}; /* Position.facts' counts */
                Py_ssize_t c = (Py_ssize_t)(facts >> at[a] & 0xFF);
                if (c >= PyList_GET_SIZE(s->ids[a])) goto done;
                long id = PyLong_AsLong(PyList_GET_ITEM(s->ids[a], c));
                if (id < 0) goto done; /* not asked yet (or an error, kept) */
                k |= (long long)id << (6 + 8 * a);
            }
        key = PyLong_FromLongLong(k);
        if (key && s->dz >= 0 && s->dz_fan && duizihu(s, packed, top, win, (uint64_t)plan[1]))
            key = Py_BuildValue("(Nii)", key, s->dz, s->dz_fan);
        if (!key) goto done;
        t = lookup(s->won, Py_BuildValue("(OlO)", key, v, huang));
        if (!t && !PyErr_Occurred()) { /* a key not seen with this 胡息: Python makes it */
            PyObject *pl = plan_tuple(plan), *h = PyLong_FromLong(v);
            if (pl && h) t = PyObject_CallFunctionObjArgs(s->miss, s->rules, pos, key, h, huang, pl, NULL);
            Py_XDECREF(pl);
            Py_XDECREF(h);
        }
    }
    if (t) {
        out = shared_new(s, t, pos);
        Py_DECREF(t);
    }
done:
    Py_XDECREF(key);
    Py_XDECREF(dd);
    if (!out && !PyErr_Occurred()) return Py_NewRef(Py_None); /* a memo miss */
    return out;
}

static PyMethodDef settler_methods[] = {
    {"settle", (PyCFunction)(void (*)(void))settler_settle, METH_FASTCALL,
     "settle(position, huang) -> Settlement | None: scoring.settle's common path"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SettlerType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "paohuzi.core._kernel.Settler",
    .tp_basicsize = sizeof(Settler),
    .tp_dealloc = (destructor)settler_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The settlement's common path for one rules object (core/scoring.py _Scorer).",
    .tp_methods = settler_methods,
    .tp_new = settler_new,
};

/* ---- 王 (wáng): the most 胡息 of a rest with wild cards (core/wang.py _solve) ----
 * The same search as _solve — the lowest natural card placed in every group shape
 * that can hold it, its other members natural when there is one, else a 王; 王 left
 * alone make one 将, triple or four of any kind (R40) — keeping only the most 胡息
 * for each (将 among the groups, a four among them): what the engine's win check
 * asks of a hand with 王 (state.py _wild_win). Memoised by (rest, 王, 将 allowed,
 * 门子 needed), as _solve is; the prices come from the rules' 胡息 grid (Python). */
typedef struct {
    int8_t other[3], n, kind; /* the other members' kinds; kind 0 句, 1 绞, 2 将, 3 triple, 4 four */
    int16_t huxi;
} WShape;

typedef struct {
    uint64_t rest;
    uint32_t tag; /* 1 | 王 << 1 | 将 allowed << 4 | need << 5; 0: empty */
    int16_t v[4]; /* [将 in the groups][a four in them] → most 胡息, NEG for none */
} WMemo;

#define WCAP (1 << 15)

typedef struct {
    PyObject_HEAD
    WShape shape[20][10];
    int nshape[20];
    int16_t alone[3][20]; /* 王 alone: a 将, a triple, a four of each kind */
    int16_t flat[NMELD];  /* a table meld's 胡息 by Group.key (rows of MELD_ROWS × kind) */
    WMemo *memo;
    int used;
} Wild;

static void wild_dealloc(Wild *w) {
    PyMem_Free(w->memo);
    Py_TYPE(w)->tp_free((PyObject *)w);
}

/* Wild(shapes, alone): shapes[c] = [(other kinds, kind code, 胡息), …] in _SHAPES[c]'s
   order; alone = (将, triple, four) × 20 prices. */
static PyObject *wild_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    static char *kw[] = {"shapes", "alone", "flat", NULL};
    PyObject *shapes, *alone, *flat;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOO:Wild", kw, &shapes, &alone, &flat))
        return NULL;
    Wild *w = (Wild *)type->tp_alloc(type, 0);
    if (!w) return NULL;
    int fl[NMELD];
    if (read_ints(flat, fl, NMELD, "flat") < 0) goto fail;
    for (int i = 0; i < NMELD; i++) w->flat[i] = (int16_t)fl[i];
    PyObject *sf = PySequence_Fast(shapes, "shapes must be a sequence of 20");
    if (!sf) goto fail;
    if (PySequence_Fast_GET_SIZE(sf) != 20) {
        Py_DECREF(sf);
        PyErr_SetString(PyExc_ValueError, "shapes must hold 20 lists (one per card kind)");
        goto fail;
    }
    for (int c = 0; c < 20; c++) {
        PyObject *lst = PySequence_Fast(PySequence_Fast_GET_ITEM(sf, c), "shapes[c] must be a list");
        if (!lst) {
            Py_DECREF(sf);
            goto fail;
        }
        Py_ssize_t n = PySequence_Fast_GET_SIZE(lst);
        if (n > 10) {
            Py_DECREF(lst), Py_DECREF(sf);
            PyErr_SetString(PyExc_ValueError, "at most 10 shapes a card");
            goto fail;
        }
        w->nshape[c] = (int)n;
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *others;
            int kind, huxi;
            WShape *sh = &w->shape[c][i];
            if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(lst, i), "Oii", &others, &kind, &huxi)) {
                Py_DECREF(lst), Py_DECREF(sf);
                goto fail;
            }
            int ks[3];
            Py_ssize_t m = PySequence_Length(others);
            if (m < 0 || m > 3 || kind < 0 || kind > 4 || huxi < -1000 || huxi > 1000 ||
                read_ints(others, ks, m, "a shape's other kinds") < 0) {
                Py_DECREF(lst), Py_DECREF(sf);
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a shape is (kinds, 0–4, 胡息)");
                goto fail;
            }
            for (int j = 0; j < m; j++) {
                if (ks[j] < 0 || ks[j] > 19) {
                    Py_DECREF(lst), Py_DECREF(sf);
                    PyErr_SetString(PyExc_ValueError, "a shape's kinds are 0..19");
                    goto fail;
                }
                sh->other[j] = (int8_t)ks[j];
            }
            sh->n = (int8_t)m, sh->kind = (int8_t)kind, sh->huxi = (int16_t)huxi;
        }
        Py_DECREF(lst);
    }
    Py_DECREF(sf);
    PyObject *af = PySequence_Fast(alone, "alone must be 3 sequences of 20");
    if (!af) goto fail;
    int bad = PySequence_Fast_GET_SIZE(af) != 3;
    for (int t = 0; t < 3 && !bad; t++) {
        int v[20];
        bad = read_ints(PySequence_Fast_GET_ITEM(af, t), v, 20, "alone") < 0;
        for (int k = 0; k < 20 && !bad; k++) w->alone[t][k] = (int16_t)v[k];
    }
    Py_DECREF(af);
    if (bad) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "alone must be 3 sequences of 20");
        goto fail;
    }
    if (!(w->memo = PyMem_Calloc(WCAP, sizeof(WMemo)))) {
        PyErr_NoMemory();
        goto fail;
    }
    return (PyObject *)w;
fail:
    Py_DECREF(w);
    return NULL;
}

static inline int16_t max16(int16_t a, int v) { return v > a ? (int16_t)v : a; }

static void wild_solve(Wild *W, uint64_t r, int w, int pf, int need, int16_t *out) {
    uint32_t tag = 1u | (uint32_t)w << 1 | (uint32_t)pf << 4 | (uint32_t)need << 5;
    uint64_t h = (r ^ (uint64_t)tag * 0x9E3779B97F4A7C15ULL) * 0xff51afd7ed558ccdULL;
    size_t slot = (size_t)(h >> 49) & (WCAP - 1);
    for (int probe = 0; probe < 8; probe++) {
        WMemo *m = &W->memo[(slot + probe) & (WCAP - 1)];
        if (m->tag == tag && m->rest == r) {
            memcpy(out, m->v, sizeof m->v);
            return;
        }
        if (!m->tag) break;
    }
    int16_t best[4] = {NEG, NEG, NEG, NEG};
    int cards = w;
    for (uint64_t x = r; x; x >>= 3) cards += (int)(x & 7);
    if (!r) { /* only 王 left: two the 将, three a triple, four a four, of any kind */
        if (w == 0 && need == 0) best[0] = 0;
        else if (need == 1 && (w == 3 || w == 4 || (w == 2 && pf))) {
            int16_t most = NEG;
            for (int k = 0; k < 20; k++) most = max16(most, W->alone[w - 2][k]);
            best[(w == 2) * 2 + (w == 4)] = most;
        }
    } else if (need > 0 && 3 * need - 1 <= cards && cards <= 4 * need) {
        int c = __builtin_ctzll(r) / 3;
        uint64_t r1 = r - BIT(c);
        for (int i = 0; i < W->nshape[c]; i++) {
            const WShape *s = &W->shape[c][i];
            if (s->kind == 2 && !pf) continue;
            uint64_t rr = r1;
            int used = 0, ok = 1;
            for (int j = 0; j < s->n; j++) {
                int m = s->other[j];
                if ((rr >> (3 * m)) & 7) rr -= BIT(m);
                else if (used < w) used++;
                else {
                    ok = 0;
                    break;
                }
            }
            if (!ok || (!used && s->kind >= 3)) continue; /* a natural triple is a 坎, set aside */
            int pair = s->kind == 2, four = s->kind == 4;
            int16_t sub[4];
            wild_solve(W, rr, w - used, pf && !pair, need - 1, sub);
            for (int p = 0; p < 2; p++)
                for (int f = 0; f < 2; f++)
                    if (sub[p * 2 + f] > NEG / 2) {
                        int q = (p | pair) * 2 + (f | four);
                        best[q] = max16(best[q], sub[p * 2 + f] + s->huxi);
                    }
        }
    }
    if (W->used >= WCAP / 2) { /* bounded, as _solve's memo: start again */
        memset(W->memo, 0, WCAP * sizeof(WMemo));
        W->used = 0;
    }
    for (int probe = 0; probe < 8; probe++) {
        WMemo *m = &W->memo[(slot + probe) & (WCAP - 1)];
        if (!m->tag) {
            m->rest = r, m->tag = tag;
            memcpy(m->v, best, sizeof best);
            W->used++;
            break;
        }
    }
    memcpy(out, best, sizeof best);
}

/* most(rest, wang, pair_free, need) -> ((no 将, no four), (no 将, four), (将, none), (将, four))
   of the most 胡息, None for no split. */
static PyObject *wild_most(Wild *W, PyObject *const *args, Py_ssize_t n) {
    if (n != 4) {
        PyErr_SetString(PyExc_TypeError, "most(rest, wang, pair_free, need) takes 4 arguments");
        return NULL;
    }
    uint64_t r;
    if (read_packed(args[0], &r) < 0) return NULL;
    long w = PyLong_AsLong(args[1]), need = PyLong_AsLong(args[3]);
    int pf = PyObject_IsTrue(args[2]);
    if (PyErr_Occurred() || pf < 0) return NULL;
    if (w < 0 || w > 7 || need < 0 || need > 7) {
        PyErr_SetString(PyExc_ValueError, "most: 0–7 王 and 0–7 门子");
        return NULL;
    }
    int16_t v[4];
    wild_solve(W, r, (int)w, pf, (int)need, v);
    PyObject *t = PyTuple_New(4);
    if (!t) return NULL;
    for (int i = 0; i < 4; i++) {
        PyObject *o = v[i] > NEG / 2 ? PyLong_FromLong(v[i]) : Py_NewRef(Py_None);
        if (!o) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, o);
    }
    return t;
}

/* The fixed part of one reading of a hand with 王 (wang.py _candidates' plans). */
typedef struct {
    uint64_t rest;
    int huxi, groups, used, fours, pairs, kans, replaced; /* kans: bits over the 坎 list */
} WPlan;

#define ROW_PENG 0
#define ROW_WEI 1
#define ROW_CHOUWEI 2
#define ROW_PAO 3
#define ROW_TI 4

/* most_of(packed, keys, win, self_drawn, wang, win_wang, hand_wang, target): wang.py
 * most_huxi of the hand (natural cards packed, table melds by Group.key, the winning
 * card or −1 for a 王 drawn, 王 in hand, R41's pattern by its hand 王 or 0, 门子 to
 * win) — the readings of _candidates, each rest searched: the most 胡息, −1 for none. */
static PyObject *wild_most_of(Wild *W, PyObject *const *args, Py_ssize_t n) {
    if (n != 8) {
        PyErr_SetString(PyExc_TypeError, "most_of takes 8 arguments");
        return NULL;
    }
    uint64_t packed;
    if (read_packed(args[0], &packed) < 0) return NULL;
    if (!PyTuple_Check(args[1]) || PyTuple_GET_SIZE(args[1]) > 7) {
        PyErr_SetString(PyExc_TypeError, "keys must be a tuple of at most 7 table melds");
        return NULL;
    }
    int nt = (int)PyTuple_GET_SIZE(args[1]), key[7];
    if (nt && read_ints(args[1], key, nt, "keys") < 0) return NULL;
    long win = PyLong_AsLong(args[2]), wang = PyLong_AsLong(args[4]), hw = PyLong_AsLong(args[6]);
    long target = PyLong_AsLong(args[7]);
    int sd = PyObject_IsTrue(args[3]), ww = PyObject_IsTrue(args[5]);
    if (PyErr_Occurred() || sd < 0 || ww < 0) return NULL;
    int bad = win < -1 || win > 19 || wang < 0 || wang + ww > 7 || hw < 0 || hw > 3 || target < 1 ||
              target > 7;
    for (int i = 0; i < nt; i++) bad |= key[i] < 0 || key[i] >= NMELD;
    if (bad || (packed & FOURS)) {
        PyErr_SetString(PyExc_ValueError, "most_of: a card, 王, pattern, 门子 or meld out of range");
        return NULL;
    }
    sd |= ww;
    int nw = (int)(wang + ww), kan[7], nk = 0, table = 0, k4 = 0;
    uint64_t rest = packed;
    for (int c = 0; c < 20; c++)
        if (((packed >> (3 * c)) & 7) == 3) {
            kan[nk++] = c;
            rest -= 3 * BIT(c);
        }
    for (int i = 0; i < nt; i++) {
        table += W->flat[key[i]];
        k4 += key[i] / 20 == ROW_PAO || key[i] / 20 == ROW_TI;
    }
    int all = (1 << nk) - 1;
    WPlan plan[256];
    int np = 0;
#define PLAN(r, h, g, u, f, p, ks, rep) plan[np++] = (WPlan){(r), (h), (g), (u), (f), (p), (ks), (rep)}
    if (hw) { /* R41: the incoming card and hand_wang 王 as one fixed 将 / 坎 / 提 */
        int size = (int)hw + 1;
        for (int c = 0; c < 20; c++) {
            if (win >= 0 && c != win) continue;
            PLAN(rest, table + W->alone[hw - 1][c], nt + 1, win < 0 ? size : size - 1,
                 k4 + (hw == 3), hw == 1, all, -1);
        }
    } else if (win < 0) { /* a 王 drawn: one more wild, or (self-drawn) it lifts a 碰/偎 */
        PLAN(rest, table, nt, 0, k4, 0, all, -1);
        for (int i = 0; i < nt; i++) {
            int row = key[i] / 20, c = key[i] % 20;
            if (row > ROW_CHOUWEI) continue;
            int up = (row == ROW_PENG ? ROW_PAO : ROW_TI) * 20 + c;
            PLAN(rest, table - W->flat[key[i]] + W->flat[up], nt, 1, k4 + 1, 0, all, i);
        }
    } else {
        int w = (int)win, in_kan = -1;
        PLAN(rest + BIT(w), table, nt, 0, k4, 0, all, -1); /* the card joins the rest */
        if (((rest >> (3 * w)) & 7) == 2) /* pair + card → 碰 (偎 when self-drawn) */
            PLAN(rest - 2 * BIT(w), table + W->flat[(sd ? ROW_WEI : ROW_PENG) * 20 + w], nt + 1, 0,
                 k4, 0, all, -1);
        for (int j = 0; j < nk; j++)
            if (kan[j] == w) in_kan = j;
        if (in_kan >= 0) /* 坎 + card → 跑 / 提 */
            PLAN(rest, table + W->flat[(sd ? ROW_TI : ROW_PAO) * 20 + w], nt + 1, 0, k4 + 1, 0,
                 all & ~(1 << in_kan), -1);
        for (int i = 0; i < nt; i++) { /* table 偎/碰 + card → 跑/提 */
            int row = key[i] / 20;
            if (key[i] % 20 != w || row > ROW_CHOUWEI) continue;
            int up = (row == ROW_PENG || !sd ? ROW_PAO : ROW_TI) * 20 + w;
            PLAN(rest, table - W->flat[key[i]] + W->flat[up], nt, 0, k4 + 1, 0, all, i);
            break;
        }
    }
    if (!k4) { /* R40: with no 跑/提 yet, one 王 may lift a table 偎 to a 提 */
        int base = np;
        for (int q = 0; q < base; q++)
            for (int i = 0; i < nt; i++) {
                int row = key[i] / 20, c = key[i] % 20;
                if ((row != ROW_WEI && row != ROW_CHOUWEI) || i == plan[q].replaced) continue;
                WPlan l = plan[q];
                l.huxi += W->flat[ROW_TI * 20 + c] - W->flat[key[i]];
                l.used++, l.fours++;
                if (np < 256) plan[np++] = l;
            }
    }
#undef PLAN
    int best = -1;
    for (int q = 0; q < np; q++) {
        const WPlan *P = &plan[q];
        for (int mask = 0; mask <= all; mask++) { /* each 坎 kept, or made a 提 with a 王 */
            if (mask & ~P->kans) continue;
            int ups = __builtin_popcount((unsigned)mask), free = nw - P->used - ups;
            int need = (int)target - P->groups - __builtin_popcount((unsigned)P->kans);
            if (free < 0 || need < 0) continue;
            int fixed = P->huxi;
            for (int j = 0; j < nk; j++)
                if (P->kans >> j & 1) fixed += mask >> j & 1 ? W->alone[2][kan[j]] : W->alone[1][kan[j]];
            int16_t sub[4];
            wild_solve(W, P->rest, free, !P->pairs, need, sub);
            for (int i = 0; i < 4; i++) /* R22: a 将 exactly when there is a four */
                if (sub[i] > NEG / 2 && (i >> 1) + P->pairs == (P->fours + ups + (i & 1) ? 1 : 0) &&
                    fixed + sub[i] > best)
                    best = fixed + sub[i];
        }
    }
    return PyLong_FromLong(best);
}

/* clear(): forget the memo (a benchmark's cold start; answers never change). */
static PyObject *wild_clear(Wild *W, PyObject *unused) {
    (void)unused;
    memset(W->memo, 0, WCAP * sizeof(WMemo));
    W->used = 0;
    Py_RETURN_NONE;
}

static PyMethodDef wild_methods[] = {
    {"most", (PyCFunction)(void (*)(void))wild_most, METH_FASTCALL,
     "most(rest, wang, pair_free, need) -> the most 胡息 per (将, four), None for none"},
    {"clear", (PyCFunction)wild_clear, METH_NOARGS, "clear(): forget the memo"},
    {"most_of", (PyCFunction)(void (*)(void))wild_most_of, METH_FASTCALL,
     "most_of(packed, keys, win, self_drawn, wang, win_wang, hand_wang, target) -> 胡息 or -1"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject WildType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "paohuzi.core._kernel.Wild",
    .tp_basicsize = sizeof(Wild),
    .tp_dealloc = (destructor)wild_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The 王 search's most 胡息 for one 胡息 grid (core/wang.py).",
    .tp_methods = wild_methods,
    .tp_new = wild_new,
};

static struct PyModuleDef kernel_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "paohuzi.core._kernel",
    .m_doc = "胡牌判定内核: the most-胡息 decomposition in C (optional; see docs/speed.md).",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__kernel(void) {
    chunk_init();
    if (!(S_win = PyUnicode_InternFromString("win")) ||
        !(S_packed = PyUnicode_InternFromString("packed")) ||
        !(S_table_keys = PyUnicode_InternFromString("table_keys")) ||
        !(S_up_key = PyUnicode_InternFromString("up_key")) ||
        !(S_self_drawn = PyUnicode_InternFromString("self_drawn")) ||
        !(S_shape = PyUnicode_InternFromString("shape")))
        return NULL;
    static const char *how[] = {"", "hand", "triple", "kan", "table"};
    for (int i = 0; i < 5; i++)
        if (!(S_how[i] = PyUnicode_InternFromString(how[i]))) return NULL;
    PyObject **names[] = {&F_hand, &F_table, &F_last_card, &F_tianhu, &F_dihu, &F_extra,
                          &F_hand_size, &F_xing, &F_wang, &F_win_wang, &F_pattern, &F_fours,
                          &F_card_bits, &F_facts};
    static const char *text[] = {"hand", "table", "last_card", "tianhu", "dihu", "extra",
                                 "hand_size", "xing", "wang", "win_wang", "pattern", "_fours",
                                 "card_bits", "facts"};
    for (int i = 0; i < 14; i++)
        if (!(*names[i] = PyUnicode_InternFromString(text[i]))) return NULL;
    if (!(EMPTY = PyTuple_New(0))) return NULL;
    PyObject *m = PyModule_Create(&kernel_module);
    if (!m) return NULL;
    PyTypeObject *types[] = {&KernelType, &ReaderType, &SettlerType, &WildType};
    for (int i = 0; i < 4; i++) {
        if (PyType_Ready(types[i]) < 0) goto fail;
        const char *dot = strrchr(types[i]->tp_name, '.'); /* "paohuzi.core._kernel.Kernel" */
        Py_INCREF(types[i]);
        if (PyModule_AddObject(m, dot + 1, (PyObject *)types[i]) < 0) {
            Py_DECREF(types[i]);
            goto fail;
        }
    }
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}

