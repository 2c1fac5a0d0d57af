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
#include <stddef.h>
#include <string.h>

#define NEG (-16000) /* "no split"; a sum of a few stays negative and fits int16 */
#define UNSET INT16_MAX
#define N3 59049     /* 3^10 */
#define N9 19683     /* 3^9 */
#define NKEYS (N3 + 10 * N9)
#define NMELD 180    /* MELD_ROWS × 20 card kinds (but 一五十's row, the last): Group.key */

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
    uint8_t *cnt; /* splits of a key (size_count, floor 0): 将 or not, a nibble each; 0xFF unset */
    int run[8];   /* 胡息 of the 句 starting at point p (0: 一二三) */
    int v2710;    /* 二七十 */
    int pair[10]; /* the 将 */
    int16_t *part; /* best_partial of each key with counts ≤ 2 (base-3 index), UNSET until asked */
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
    /* core/profile.py's ints of each 门子 a split can hold (has_prof 0: not given):
       per table meld key; per card a 坎, 碰, 偎, 跑, 提; per point a 绞; per size and
       point a 句 (run), the 二七十, the 将 */
    int has_prof;
    long long pkey[NMELD], pcard[5][20], pjiao[10], prun[2][8], p2710[2], ppair[2][10];
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
 * given (8 slots): (fixed 胡息, rest, pair needed, use: 1 hand, 2 triple, 3 kan,
 * 4 table) and rest_best's choice for that rest (small key, big key, 绞 points). */
static long kernel_core(const Kernel *k, uint64_t packed, int table_huxi, int pair, int hand_ok,
                        int four_ok, int gain_up, int win, int self_drawn, long long *plan) {
    if (packed & FOURS) return -1; /* four in hand: it must already be a 提 (R12) */
    uint64_t mask = packed & (packed >> 1) & LOW, rest = packed, ch[4];
    int fixed = table_huxi, best = -1, v, ok;
    if (mask) {
        rest = packed - 3 * mask;
        for (uint64_t m = mask; m; m &= m - 1) fixed += k->kan[__builtin_ctzll(m) / 3];
    }
#define REST(r, pr)                                                                      \
    do {                                                                                 \
        ok = rest_best(k, (r), (pr), &v, plan ? ch : NULL);                              \
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
        for (int c_ = 0; c_ < 4; c_++) plan[4 + c_] = (long long)ch[c_];                 \
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

/* -- the profile of a plan's split (core/profile.py), and how many splits ------ */

/* The entry of a one-size key (counts ≤ 2 but one 3), or NULL. */
static inline const Entry *entry_of(const Kernel *k, int s, uint32_t key) {
    uint32_t g1, g2;
    int i = key_index(key, &g1, &g2);
    return i < 0 ? NULL : &k->size[s].e[i];
}

/* _SizeTable.profile: the profile of the split _SizeTable._walk follows back (at each
   step the first of 句, 二七十, 将 whose value the table allows); −1 if none does. */
static long long size_profile(const Kernel *k, int s, uint32_t key, int pair) {
    const Size *t = &k->size[s];
    long long prof = 0;
    while (key) {
        const Entry *e = entry_of(k, s, key);
        if (!e) return -1;
        int want = e->v[pair], p = __builtin_ctz(key) / 3, sh = 3 * p, found = 0;
        const Entry *r;
        if (p <= 7 && (key >> (sh + 3)) & 7 && (key >> (sh + 6)) & 7) {
            uint32_t rest = key - (uint32_t)(BIT(p) + BIT(p + 1) + BIT(p + 2));
            if ((r = entry_of(k, s, rest)) && t->run[p] + r->v[pair] == want)
                prof += k->prun[s][p], key = rest, found = 1;
        }
        if (!found && p == 1 && (key >> 18) & 7 && (key >> 27) & 7) {
            uint32_t rest = key - (uint32_t)(BIT(1) + BIT(6) + BIT(9));
            if ((r = entry_of(k, s, rest)) && t->v2710 + r->v[pair] == want)
                prof += k->p2710[s], key = rest, found = 1;
        }
        if (!found && pair && ((key >> sh) & 7) >= 2) {
            uint32_t rest = key - (uint32_t)(2 * BIT(p));
            if ((r = entry_of(k, s, rest)) && t->pair[p] + r->v[0] == want)
                prof += k->ppair[s][p], key = rest, pair = 0, found = 1;
        }
        if (!found) return -1;
    }
    return prof;
}

/* profile.py's fields that need the rest's split followed (无息 门子, red 门子). */
#define P_SPLIT (15LL << 12 | 15LL << 16 | 15LL << 20)

/* HandEvaluator.profile: the profile of the plan's split, added up as Python adds it
   (table melds, the winning card's use, 坎, then the rest's 绞 and sizes); −1: none.
   With ``whole`` 0 only the counts of 门子, runs and 将 are right (the rest's cards
   make (n − 2·将) / 3 runs, 句 or 绞, whatever the split: nothing to follow). */
static long long plan_profile(const Kernel *k, uint64_t packed, long long tprof, long up_key,
                              int win, int sd, const long long *plan, int whole) {
    long long prof = tprof; /* the table melds' (read_fields adds them up) */
    const long long *four = k->pcard[sd ? 4 : 3];
    int how = (int)plan[3];
    if (how == 4) prof += (up_key < 20 ? k->pcard[3] : four)[win] - k->pkey[up_key];
    uint64_t mask = packed & (packed >> 1) & LOW;
    for (uint64_t m = mask; m; m &= m - 1) prof += k->pcard[0][__builtin_ctzll(m) / 3];
    if (how == 3) prof += four[win] - k->pcard[0][win];
    if (how == 2) prof += k->pcard[sd ? 2 : 1][win];
    int pair = (int)plan[2];
    if (!whole) {
        uint64_t r = (uint64_t)plan[1];
        int n = __builtin_popcountll(r & LOW) + 2 * __builtin_popcountll(r >> 1 & LOW) +
                4 * __builtin_popcountll(r >> 2 & LOW);
        return prof + (n - 2 * pair) / 3 * (1LL | 1LL << 4) + pair * (1LL | 1LL << 8);
    }
    /* the rest's split: the choice kernel_core kept with the plan */
    for (uint64_t j = (uint64_t)(plan[6] | plan[7]); j; j &= j - 1) prof += k->pjiao[__builtin_ctzll(j)];
    uint32_t s = (uint32_t)plan[4], b = (uint32_t)plan[5];
    int small_pair = 0;
    if (pair) {
        const Entry *es = entry_of(k, 0, s), *eb = entry_of(k, 1, b);
        if (!es || !eb) return -1;
        small_pair = es->v[1] + eb->v[0] >= es->v[0] + eb->v[1];
    }
    long long ps = size_profile(k, 0, s, small_pair), pb = size_profile(k, 1, b, pair && !small_pair);
    return ps < 0 || pb < 0 ? -1 : prof + ps + pb;
}

/* evaluator._size_count: splits of one size into 句, 二七十 and (pair) one 将: 0, 1, 2+;
   copies of the lowest card take options from ``floor`` on (each multiset once). Those
   with ``floor`` 0 are kept per key in the size's ``cnt``, as Python keeps them. */
static int size_count(Size *t, uint32_t key, int pair, int floor) {
    if (!key) return pair ? 0 : 1;
    uint32_t g1, g2;
    int i = floor ? -1 : key_index(key, &g1, &g2);
    if (i >= 0 && t->cnt[i] != 0xFF && (t->cnt[i] >> 4 * pair & 15) != 15)
        return t->cnt[i] >> 4 * pair & 15;
    int sh = __builtin_ctz(key) / 3 * 3, p = sh / 3, total = 0;
    for (int opt = floor; opt < 3 && total < 2; opt++) {
        uint32_t take;
        int ok;
        if (opt == 0) {
            take = (1u | 1u << 3 | 1u << 6) << sh;
            ok = p <= 7 && (key >> (sh + 3)) & 7 && (key >> (sh + 6)) & 7;
        } else if (opt == 1) {
            take = 1u << 3 | 1u << 18 | 1u << 27;
            ok = p == 1 && (key >> 18) & 7 && (key >> 27) & 7;
        } else {
            take = 2u << sh;
            ok = pair && ((key >> sh) & 7) >= 2;
        }
        if (ok) {
            uint32_t nxt = key - take;
            total += size_count(t, nxt, pair && opt != 2, (nxt >> sh) & 7 ? opt : 0);
        }
    }
    if (total > 2) total = 2;
    if (i >= 0) t->cnt[i] = (uint8_t)((t->cnt[i] & ~(15 << 4 * pair)) | total << 4 * pair);
    return total;
}

/* evaluator._rest_count: distinct splits of a rest (at most one 绞 a point): 0, 1, 2+. */
static int rest_count(Kernel *k, uint64_t rest, int pair) {
    Size *sm = &k->size[0], *bg = &k->size[1];
    const uint32_t low = (uint32_t)(LOW & 0x3fffffff);
    uint32_t s = (uint32_t)(rest & 0x3fffffff), b = (uint32_t)(rest >> 30);
    uint32_t s1 = (s | s >> 1 | s >> 2) & low, b1 = (b | b >> 1 | b >> 2) & low;
    uint32_t s2 = (s >> 1 | s >> 2) & low, b2 = (b >> 1 | b >> 2) & low;
    uint32_t cs[1024], cb[1024]; /* ≤ 3 choices a point; points with 绞 are few */
    int n = 1, total = 0;
    cs[0] = s, cb[0] = b;
    for (uint32_t jiao = (s2 & b1) | (s1 & b2); jiao; jiao &= jiao - 1) {
        uint32_t bit = jiao & -jiao;
        int old = n;
        for (int i = 0; i < old; i++) {
            if (n + 2 > 1024) return 2; /* (never in a real hand) */
            if (s2 & bit && b1 & bit) cs[n] = cs[i] - 2 * bit, cb[n++] = cb[i] - bit;
            if (s1 & bit && b2 & bit) cs[n] = cs[i] - bit, cb[n++] = cb[i] - 2 * bit;
        }
    }
    for (int i = 0; i < n && total < 2; i++) {
        if (pair) {
            total += size_count(sm, cs[i], 1, 0) * size_count(bg, cb[i], 0, 0);
            total += size_count(sm, cs[i], 0, 0) * size_count(bg, cb[i], 1, 0);
        } else
            total += size_count(sm, cs[i], 0, 0) * size_count(bg, cb[i], 0, 0);
    }
    return total < 2 ? total : 2;
}

/* evaluator.split_count: distinct splits over every use of the winning card: 0, 1, 2+. */
static int count_splits(Kernel *k, uint64_t packed, const int *sh, long up_key, int win) {
    if (packed & FOURS) return 0;
    uint64_t mask = packed & (packed >> 1) & LOW & ~(packed >> 2), rest = packed - 3 * mask;
    int total = 0;
    if (sh[1]) {
        total += rest_count(k, rest + BIT(win), sh[0]);
        if (((rest >> (3 * win)) & 7) == 2) total += rest_count(k, rest - 2 * BIT(win), sh[0]);
    }
    if (sh[2] && ((mask >> (3 * win)) & 1 || up_key >= 0)) total += rest_count(k, rest, 1);
    return total < 2 ? total : 2;
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
    /* (AndOverflow: a loop over the digits; AsUnsignedLongLong goes through
       _PyLong_AsByteArray for any int over 30 bits, a twentieth of a warm settlement) */
    int over = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &over);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (over || v < 0) { /* (as PyLong_AsUnsignedLongLong says it) */
        PyErr_SetString(PyExc_OverflowError, "packed must be an int of 0 to 2**60");
        return -1;
    }
    if (v >> 60) {
        PyErr_SetString(PyExc_ValueError, "packed must fit 20 fields of 3 bits");
        return -1;
    }
    *out = (uint64_t)v;
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

/* n ints of seq in [0, 2**30) into out: profile.py's ints. */
static int read_profiles(PyObject *seq, long long *out, Py_ssize_t n, const char *what) {
    PyObject *f = PySequence_Fast(seq, what);
    if (!f) return -1;
    if (PySequence_Fast_GET_SIZE(f) != n) {
        PyErr_Format(PyExc_ValueError, "%s: %zd profiles expected, got %zd", what, n,
                     PySequence_Fast_GET_SIZE(f));
        Py_DECREF(f);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long long v = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(f, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(f);
            return -1;
        }
        if (v < 0 || v >= 1LL << 30) {
            PyErr_Format(PyExc_ValueError, "%s: profile %lld out of range", what, v);
            Py_DECREF(f);
            return -1;
        }
        out[i] = v;
    }
    Py_DECREF(f);
    return 0;
}

/* profiles = (per key[180], per card (坎, 碰, 偎, 跑, 提)[5][20], per 绞 point[10],
   per size ((句)[8], 二七十, (将)[10])[2]): HandEvaluator._profiles' lists. */
static int read_all_profiles(Kernel *k, PyObject *pr) {
    PyObject *keys, *cards, *jiao, *sizes;
    if (!PyArg_ParseTuple(pr, "OOOO:profiles", &keys, &cards, &jiao, &sizes)) return -1;
    if (read_profiles(keys, k->pkey, NMELD, "key profiles") < 0 ||
        read_profiles(jiao, k->pjiao, 10, "jiao profiles") < 0)
        return -1;
    PyObject *cf = PySequence_Fast(cards, "card profiles");
    if (!cf) return -1;
    int bad = PySequence_Fast_GET_SIZE(cf) != 5;
    for (int i = 0; i < 5 && !bad; i++)
        bad = read_profiles(PySequence_Fast_GET_ITEM(cf, i), k->pcard[i], 20, "card profiles") < 0;
    Py_DECREF(cf);
    PyObject *sf = bad ? NULL : PySequence_Fast(sizes, "size profiles");
    if (sf) {
        bad = PySequence_Fast_GET_SIZE(sf) != 2;
        for (int i = 0; i < 2 && !bad; i++) {
            PyObject *run, *one, *pair;
            bad = !PyArg_ParseTuple(PySequence_Fast_GET_ITEM(sf, i), "OOO:size profiles", &run,
                                    &one, &pair) ||
                  read_profiles(run, k->prun[i], 8, "run profiles") < 0 ||
                  read_profiles(pair, k->ppair[i], 10, "pair profiles") < 0;
            PyObject *t = bad ? NULL : PyTuple_Pack(1, one);
            bad = bad || !t || read_profiles(t, &k->p2710[i], 1, "二七十 profile") < 0;
            Py_XDECREF(t);
        }
        Py_DECREF(sf);
    } else bad = 1;
    if (bad && !PyErr_Occurred())
        PyErr_SetString(PyExc_ValueError, "profiles: 5 card rows of 20, 2 sizes");
    k->has_prof = !bad;
    return bad ? -1 : 0;
}

static void kernel_dealloc(Kernel *self) {
    for (int s = 0; s < 2; s++)
        PyMem_Free(self->size[s].e), PyMem_Free(self->size[s].cnt), PyMem_Free(self->size[s].part);
    Py_XDECREF(self->fallback);
    Py_XDECREF(self->position);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int fill_all(Size *t) {
    t->e = PyMem_Malloc(sizeof(Entry) * NKEYS);
    t->cnt = PyMem_Malloc(NKEYS);
    t->part = PyMem_Malloc(sizeof(int16_t) * N3);
    if (!t->e || !t->cnt || !t->part) return -1;
    for (int i = 0; i < N3; i++) t->part[i] = UNSET;
    memset(t->cnt, 0xFF, NKEYS);
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
                         "flat", "gain_pao", "gain_ti", "fallback", "position", "profiles", NULL};
    PyObject *sz[2], *jiao, *peng, *wei, *kan, *pao, *ti, *flat, *gp, *gt, *fb, *pr = NULL;
    PyTypeObject *pt = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOOOOOOOOO|O!O:Kernel", kw, &sz[0], &sz[1],
                                     &jiao, &peng, &wei, &kan, &pao, &ti, &flat, &gp, &gt, &fb,
                                     &PyType_Type, &pt, &pr))
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
    if (pr && pr != Py_None && read_all_profiles(self, pr) < 0) goto fail;
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

/* A field of ``pos``: from ``dd`` (its instance dict, or NULL) when there, else its
   class's plain value (a field the reader left at its class default), else through
   getattr. New reference. */
static PyObject *field(PyObject *dd, PyObject *pos, PyObject *name) {
    if (dd) {
        PyObject *o = PyDict_GetItemWithError(dd, name);
        if (o) return Py_NewRef(o);
        if (PyErr_Occurred()) return NULL;
        /* a field left at its class default: the class's plain value */
        o = _PyType_Lookup(Py_TYPE(pos), name);
        if (o && !Py_TYPE(o)->tp_descr_get) return Py_NewRef(o);
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
                       int *sh, int *up, int *win, int *sd, long *up_key, long long *tprof) {
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
    long long tp = 0; /* the table melds' profile (core/profile.py), when asked */
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(o); i++) {
        long key = PyLong_AsLong(PyTuple_GET_ITEM(o, i));
        if (key < 0 || key >= NMELD) {
            Py_DECREF(o);
            /* keys from NMELD on are 一五十's row (衡阳's option), which rules the kernel
               serves never play: say so (evaluator._NO_YIWUSHI's words) */
            if (PyErr_Occurred()) {
            } else if (key >= NMELD && key < NMELD + 20) {
                PyErr_Format(PyExc_ValueError, "table key %ld: %s", key,
                    "a table 一五十 is a 句 only where the rules play it (yiwushi, 衡阳's option)");
            } else {
                PyErr_Format(PyExc_ValueError, "table key %ld out of range", key);
            }
            return -1;
        }
        *huxi += self->flat[key];
        tp += self->pkey[key];
    }
    if (tprof) *tprof = tp;
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
    if (up_key) *up_key = uk < 0 ? -1 : uk;
    return 1;
}

static int read_pos(Kernel *self, PyObject *pos, uint64_t *packed, int *huxi, int *sh, int *up,
                    int *win, int *sd, long *up_key) {
    PyObject *dd = dict_of(self, pos);
    int r = read_fields(self, pos, dd, packed, huxi, sh, up, win, sd, up_key, NULL);
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
/* _SizeTable.best_partial: the most 胡息 of disjoint 句 of a one-size key, leftovers
   allowed (R33), filled as asked; −1 for a key with a count above 2 (no 坎 is left in
   a rest: they were taken out). */
static int size_partial(Size *t, uint32_t key) {
    if (!key) return 0;
    uint32_t lo = CHUNK[key & 0x7fff], hi = CHUNK[key >> 15];
    if (key >> 30 || (lo | hi) & C_BAD || C_Q(lo) != 7 || C_Q(hi) != 7) return -1;
    int i = (int)(C_B3(lo) + 243 * C_B3(hi));
    if (t->part[i] != UNSET) return t->part[i];
    int p = __builtin_ctz(key) / 3, sh = 3 * p;
    int best = size_partial(t, key - (uint32_t)BIT(p)); /* the lowest card left over */
    if (p <= 7 && (key >> (sh + 3)) & 7 && (key >> (sh + 6)) & 7) {
        int v = t->run[p] + size_partial(t, key - (uint32_t)(BIT(p) + BIT(p + 1) + BIT(p + 2)));
        if (v > best) best = v;
    }
    if (p == 1 && (key >> 18) & 7 && (key >> 27) & 7) {
        int v = t->v2710 + size_partial(t, key - (uint32_t)(BIT(1) + BIT(6) + BIT(9)));
        if (v > best) best = v;
    }
    t->part[i] = (int16_t)best;
    return best;
}

/* HandEvaluator.current_huxi: 当前总息数 (R33) — the table's 胡息, the 坎's, and the
   most the rest shows in disjoint 句/绞 (_partial_huxi: each size's best, and every
   choice of 绞 where a point is held in both sizes) into *out; −1 for a rest this does
   not read (a count of 4 or more: never in play), for the Python path. */
static int kernel_current_of(Kernel *k, uint64_t packed, long table_huxi, long *out) {
    uint64_t mask = packed & (packed >> 1) & LOW, rest = packed - 3 * mask;
    long fixed = table_huxi;
    for (uint64_t m = mask; m; m &= m - 1) fixed += k->kan[__builtin_ctzll(m) / 3];
    uint32_t s = (uint32_t)(rest & 0x3fffffff), b = (uint32_t)(rest >> 30);
    if (rest >> 60) return -1;
    int ps = size_partial(&k->size[0], s), pb = size_partial(&k->size[1], b);
    if (ps < 0 || pb < 0) return -1;
    int best = ps + pb, any = 0;
    for (int p = 0; p < 10; p++) any |= k->jiao[p] != 0;
    uint32_t s1, s2, b1, b2;
    key_index(s, &s1, &s2);
    key_index(b, &b1, &b2);
    uint32_t jiao = (s2 & b1) | (s1 & b2);
    if (jiao && any) { /* as rest_best: more than 5 such points never occur in play */
        Jiao stack_opts[243], *opts = stack_opts, *heap = NULL;
        if (__builtin_popcount(jiao) > 5) {
            if (!(heap = PyMem_Malloc(sizeof(Jiao) * MAXJ))) return -1;
            opts = heap;
        }
        int n = jiao_options(k, jiao, s2 & jiao, b2 & jiao, opts);
        for (int i = 1; i < n; i++) {
            int fs = size_partial(&k->size[0], s - (uint32_t)opts[i].ds);
            int fb = size_partial(&k->size[1], b - (uint32_t)opts[i].db);
            if (fs >= 0 && fb >= 0 && opts[i].v + fs + fb > best) best = opts[i].v + fs + fb;
        }
        PyMem_Free(heap);
    }
    *out = fixed + best;
    return 0;
}

/* current(packed, table_huxi) -> int | None (None: the Python path reads it). */
static PyObject *kernel_current(Kernel *self, PyObject *const *args, Py_ssize_t n) {
    if (n != 2) {
        PyErr_Format(PyExc_TypeError, "current(packed, table_huxi): 2 arguments, got %zd", n);
        return NULL;
    }
    uint64_t packed;
    if (read_packed(args[0], &packed) < 0) return NULL;
    long th = PyLong_AsLong(args[1]);
    if (th == -1 && PyErr_Occurred()) return NULL;
    long v;
    return kernel_current_of(self, packed, th, &v) < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(v);
}

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
    long long plan[8] = {0};
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

static PyObject *kernel_outcomes_of(Kernel *self, PyObject *pos);

/* read_pos with the table's profile, for a kernel made with profiles (``what``: the
   method's name in the error otherwise). */
static int read_profiled(Kernel *self, PyObject *pos, const char *what, uint64_t *packed,
                         int *huxi, int *sh, int *up, int *win, int *sd, long *uk,
                         long long *tprof) {
    if (!self->has_prof) {
        PyErr_Format(PyExc_ValueError, "%s: the kernel was made without profiles", what);
        return -1;
    }
    PyObject *dd = dict_of(self, pos);
    int r = read_fields(self, pos, dd, packed, huxi, sh, up, win, sd, uk, tprof);
    Py_XDECREF(dd);
    return r;
}

/* profile_of(position): HandEvaluator.profile of its best split's plan (None: no shape). */
static PyObject *kernel_profile_of(Kernel *self, PyObject *pos) {
    uint64_t packed;
    int huxi, sh[3], up, win, sd;
    long uk;
    long long tprof;
    int r = read_profiled(self, pos, "profile_of", &packed, &huxi, sh, &up, &win, &sd, &uk, &tprof);
    if (r == 0) PyErr_SetString(PyExc_ValueError, "profile_of: a position without a winning card");
    if (r <= 0) return NULL;
    long long plan[8] = {0};
    if (kernel_core(self, packed, huxi, sh[0], sh[1], sh[2], up, win, sd, plan) == -2) return NULL;
    if (!plan[3]) Py_RETURN_NONE;
    long long prof = plan_profile(self, packed, tprof, uk, win, sd, plan, 1);
    if (prof < 0) {
        PyErr_SetString(PyExc_ValueError, "profile_of: inconsistent size table");
        return NULL;
    }
    return PyLong_FromLongLong(prof);
}

/* split_count_of(position): evaluator.split_count (0, 1 or 2 for more). */
static PyObject *kernel_split_count_of(Kernel *self, PyObject *pos) {
    uint64_t packed;
    int huxi, sh[3], up, win, sd;
    long uk;
    int r = read_pos(self, pos, &packed, &huxi, sh, &up, &win, &sd, &uk);
    if (r < 0) return NULL;
    return PyLong_FromLong(r == 0 ? 0 : count_splits(self, packed, sh, uk, win));
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
    {"profile_of", (PyCFunction)kernel_profile_of, METH_O,
     "profile_of(position) -> int | None: HandEvaluator.profile of its best split"},
    {"outcomes_of", (PyCFunction)kernel_outcomes_of, METH_O,
     "outcomes_of(position) -> set | None: HandEvaluator.outcomes (None: too many)"},
    {"split_count_of", (PyCFunction)kernel_split_count_of, METH_O,
     "split_count_of(position) -> int: evaluator.split_count"},
    {"plan_of", (PyCFunction)kernel_plan_of, METH_O,
     "plan_of(position) -> plan(...) of a position with a winning card"},
    {"rest", (PyCFunction)kernel_rest, METH_VARARGS,
     "rest(rest, pair) -> (best or -1, (small key, big key, jiao 2-small, jiao 2-big))"},
    {"current", (PyCFunction)(void (*)(void))kernel_current, METH_FASTCALL,
     "current(packed, table_huxi) -> int | None: HandEvaluator.current_huxi (R33)"},
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
/* A meld text read before, with its entry (owned) and what the read takes of it. */
#define MCACHE 512
#define MTEXT 22
typedef struct {
    PyObject *entry;   /* (Group, key, weight, cards), as melds holds it; NULL: empty */
    int16_t key;       /* its Group.key */
    uint8_t len, n;    /* the text's length; its cards */
    int8_t cards[4];   /* their kinds */
    char text[MTEXT];  /* the ASCII text */
} MeldSlot;

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
    PyObject *card[20];    /* the Card of each kind, as words maps its codes (owned) */
    /* Table melds by their ASCII text, read before (``pao:d9``): words' lookup of a
       fresh JSON str hashes it (SipHash) and compares it; a direct-mapped slot found
       by a cheap hash of its bytes, then compared, finds the same entry. */
    MeldSlot mc[MCACHE];
    /* shape_flags of the two deal sizes in play (20, 14), by cards in hand, melds and
       跑/提: owned, NULL until asked (the shapes dict is the memo of every other size) */
    PyObject *shape[2][28][8][8];
} Reader;

static PyObject *F_hand, *F_table, *F_last_card, *F_tianhu, *F_dihu, *F_extra, *F_hand_size,
    *F_xing, *F_wang, *F_win_wang, *F_pattern, *F_fours, *F_card_bits, *F_facts, *EMPTY;
static PyObject *ZERO; /* 0, made once */

/* The common form's keys, in the order of read_items' slots. */
enum { K_HAND, K_TABLE, K_WIN, K_SD, K_LC, K_TH, K_DH, K_EXTRA, NKEY };
static PyObject **const READ_KEY[NKEY] = {&F_hand, &F_table, &S_win, &S_self_drawn,
                                          &F_last_card, &F_tianhu, &F_dihu, &F_extra};

static void reader_dealloc(Reader *r) {
    Py_XDECREF(r->words);
    Py_XDECREF(r->melds);
    Py_XDECREF(r->meld);
    Py_XDECREF(r->shapes);
    Py_XDECREF(r->shape_flags);
    Py_XDECREF(r->fields);
    Py_XDECREF(r->position);
    PyObject **shape = &r->shape[0][0][0][0];
    for (size_t i = 0; i < sizeof r->shape / sizeof *shape; i++) Py_XDECREF(shape[i]);
    for (int i = 0; i < MCACHE; i++) Py_XDECREF(r->mc[i].entry);
    for (int c = 0; c < 20; c++) Py_XDECREF(r->card[c]);
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
    int same = PySet_GET_SIZE(fields) == NKEY; /* read_items knows the keys by name */
    for (int i = 0; i < NKEY && same; i++)
        if ((same = PySet_Contains(fields, *READ_KEY[i])) < 0) {
            Py_DECREF(seq);
            return NULL;
        }
    if (!same) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "fields must be the common form's keys");
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
            if (v >= 0 && v < 20 && !r->card[v]) r->card[v] = Py_NewRef(o);
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

/* str.split()'s whitespace among ASCII characters, as a table (one load a character). */
#define SP1(c) [c] = 1
static const uint8_t ASCII_SPACE[256] = {SP1(' '),  SP1(0x09), SP1(0x0A), SP1(0x0B), SP1(0x0C),
                                         SP1(0x0D), SP1(0x1C), SP1(0x1D), SP1(0x1E), SP1(0x1F)};
#undef SP1
static inline int ascii_space(unsigned char ch) { return ASCII_SPACE[ch]; }

/* The kind of the ASCII code s[0..len) (``x7``, ``D10``), as words maps it; −1 for none. */
static int code_kind(const Reader *r, const unsigned char *s, Py_ssize_t len) {
    int a = s[0] == 'x' ? 0 : s[0] == 'X' ? 1 : s[0] == 'd' ? 2 : s[0] == 'D' ? 3 : -1;
    if (a < 0 || len < 2 || len > 3 || s[1] < '1' || s[1] > '9') return -1;
    if (len == 3 && (s[1] != '1' || s[2] != '0')) return -1;
    return r->code[a][len == 3 ? 10 : s[1] - '0'];
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
        int c = code_kind(r, s + i, j - i);
        if (c < 0) return -2;
        got[c]++, n++;
        i = j;
    }
    memcpy(hc, got, sizeof got);
    return n;
}

/* The kind of one ASCII code alone (``d4``, ``X10``), else −1 (the words' look-up then). */
static int ascii_card(const Reader *r, PyObject *w) {
    if (!PyUnicode_IS_ASCII(w) || PyUnicode_GET_LENGTH(w) < 2) return -1;
    int c = code_kind(r, PyUnicode_1BYTE_DATA(w), PyUnicode_GET_LENGTH(w));
    return c >= 0 && r->card[c] ? c : -1;
}

/* The slot a meld's ASCII text would be kept in (a multiplicative hash of its first and
   last 8 bytes and its length: a few instructions where SipHash takes a hundred), or
   NULL: a text not ASCII or too long for one. */
static MeldSlot *meld_slot(Reader *r, PyObject *t) {
    Py_ssize_t len = PyUnicode_GET_LENGTH(t);
    if (!PyUnicode_IS_ASCII(t) || len > MTEXT) return NULL;
    const unsigned char *b = PyUnicode_1BYTE_DATA(t);
    uint64_t lo = 0, hi = 0; /* its first and last 8 bytes (overlapping; all of a short one) */
    if (len >= 8) {
        memcpy(&lo, b, 8);
        memcpy(&hi, b + len - 8, 8);
    } else
        for (Py_ssize_t i = 0; i < len; i++) lo |= (uint64_t)b[i] << 8 * i;
    uint64_t h = (lo * 0x9E3779B97F4A7C15u) ^ (hi * 0xC2B2AE3D27D4EB4Fu) ^ (uint64_t)len;
    return &r->mc[(h ^ h >> 32 ^ h >> 47) & (MCACHE - 1)];
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

/* An exact str equal to an interned ASCII key (a JSON line's keys are not interned). */
static int same_key(PyObject *key, PyObject *name) {
    Py_ssize_t len = PyUnicode_GET_LENGTH(name);
    return PyUnicode_IS_ASCII(key) && PyUnicode_GET_LENGTH(key) == len &&
           !memcmp(PyUnicode_1BYTE_DATA(key), PyUnicode_1BYTE_DATA(name), (size_t)len);
}

/* The slot of an exact str key (the one field its length and first letter could be,
   then compared: a JSON line's keys are not interned), NKEY for none. */
static int key_slot(PyObject *key) {
    int i;
    switch (PyUnicode_GET_LENGTH(key)) {
    case 3: i = K_WIN; break;
    case 4: i = PyUnicode_READ_CHAR(key, 0) == 'h' ? K_HAND : K_DH; break;
    case 5: i = PyUnicode_READ_CHAR(key, 0) == 't' ? K_TABLE : K_EXTRA; break;
    case 6: i = K_TH; break;
    case 9: i = K_LC; break;
    case 10: i = K_SD; break;
    default: return NKEY;
    }
    return key == *READ_KEY[i] || same_key(key, *READ_KEY[i]) ? i : NKEY;
}

/* d's values by slot (borrowed, NULL when absent), in one pass over d (was a set test a
   key and a look-up a field): 1, or 0 when a key is not one of the common form's (None
   then), −1 on error. A key not an exact str is tested as the set tests it. */
static int read_items(Reader *r, PyObject *d, PyObject **v) {
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    memset(v, 0, NKEY * sizeof *v);
    while (PyDict_Next(d, &pos, &key, &value)) {
        int i;
        if (PyUnicode_CheckExact(key)) {
            if ((i = key_slot(key)) == NKEY) return 0;
            v[i] = value;
            continue;
        }
        int in = PySet_Contains(r->fields, key); /* (a str subclass may equal a field) */
        if (in <= 0) return in;
        for (i = 0; i < NKEY; i++) {
            int eq = PyObject_RichCompareBool(key, *READ_KEY[i], Py_EQ);
            if (eq < 0) return -1;
            if (eq) break;
        }
        if (i == NKEY) return 0;
        v[i] = value;
    }
    return 1;
}

static PyObject *build(Reader *r, PyObject **v, PyObject *hs, Py_ssize_t n, int *hc, int *tc,
                       int win, PyObject *win_card, PyObject **entries, int *keys,
                       Py_ssize_t nt, int size, int fours, uint32_t colour);

/* A table meld's text as _MELDS (or _meld, which fills it) reads it, into ``m`` (its entry
   owned, key, cards; not its text): 1, 0 for not a table meld of the common form (None),
   −1 on error. */
static int read_meld(Reader *r, PyObject *t, MeldSlot *m) {
    PyObject *e = PyDict_GetItemWithError(r->melds, t);
    if (e) Py_INCREF(e);
    else if (PyErr_Occurred() || !(e = PyObject_CallOneArg(r->meld, t))) return -1;
    if (e == Py_None) {
        Py_DECREF(e);
        return 0;
    }
    PyObject *cards = PyTuple_CheckExact(e) && PyTuple_GET_SIZE(e) == 4 ? PyTuple_GET_ITEM(e, 3) : NULL;
    if (!cards || !PyTuple_CheckExact(cards) || PyTuple_GET_SIZE(cards) > 4) {
        Py_DECREF(e);
        PyErr_SetString(PyExc_TypeError, "a meld entry must be (Group, key, weight, cards)");
        return -1;
    }
    long key = PyLong_AsLong(PyTuple_GET_ITEM(e, 1));
    if (key < 0 || key >= NMELD) {
        Py_DECREF(e);
        if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "meld key %ld out of range", key);
        return -1;
    }
    m->n = (uint8_t)PyTuple_GET_SIZE(cards);
    for (int j = 0; j < m->n; j++) {
        int c;
        if (read_card(PyTuple_GET_ITEM(cards, j), &c, "a meld's card") < 0) {
            Py_DECREF(e);
            return -1;
        }
        m->cards[j] = (int8_t)c;
    }
    m->entry = e, m->key = (int16_t)key;
    return 1;
}

/* _read in C: the Position, or None for anything else (new reference), NULL on error. */
static PyObject *read_position(Reader *r, PyObject *d, PyObject *hs) {
    if (!PyDict_CheckExact(d) || !PyLong_CheckExact(hs)) Py_RETURN_NONE;
    PyObject *v[NKEY];
    int known = read_items(r, d, v);
    if (known <= 0) {
        if (known == 0) Py_RETURN_NONE;
        return NULL;
    }
    PyObject *hand = v[K_HAND] ? v[K_HAND] : Py_None, *win_s = v[K_WIN] ? v[K_WIN] : Py_None;
    if (!PyUnicode_CheckExact(hand) || !PyUnicode_CheckExact(win_s)) Py_RETURN_NONE;
    int hc[20] = {0}, tc[20], win;
    Py_ssize_t n = hand_counts(r, hand, hc);
    if (n == -1) return NULL;
    if (n == -2) Py_RETURN_NONE;
    PyObject *win_card = NULL;
    int k = (win = ascii_card(r, win_s)) >= 0;
    if (k) win_card = r->card[win];
    else if ((k = word_card(r, win_s, &win_card, &win)) < 0) return NULL;
    if (k == 0) { /* one word between spaces, else not one card */
        PyObject *ws = PyUnicode_Split(win_s, NULL, -1);
        if (!ws) return NULL;
        k = PyList_GET_SIZE(ws) == 1 ? word_card(r, PyList_GET_ITEM(ws, 0), &win_card, &win) : 0;
        Py_DECREF(ws);
        if (k < 0) return NULL;
        if (k == 0) Py_RETURN_NONE;
    }
    PyObject *table = v[K_TABLE];
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
        /* a str hashed before (a program's own, not a fresh JSON one): the dict finds it
           as quickly, by identity */
        MeldSlot *ms = ((PyASCIIObject *)t)->hash == -1 ? meld_slot(r, t) : NULL, got, *m = ms;
        if (ms && ms->entry && ms->len == PyUnicode_GET_LENGTH(t) &&
            !memcmp(ms->text, PyUnicode_1BYTE_DATA(t), ms->len)) { /* read before */
            e = Py_NewRef(ms->entry);
        } else {
            int k = read_meld(r, t, &got);
            if (k <= 0) {
                if (k < 0) goto done;
                goto none;
            }
            e = got.entry, m = &got;
            if (ms) { /* kept for the next read of this text (the slot's own reference) */
                got.len = (uint8_t)PyUnicode_GET_LENGTH(t);
                memcpy(got.text, PyUnicode_1BYTE_DATA(t), got.len);
                Py_XDECREF(ms->entry);
                *ms = got;
                Py_INCREF(e);
            }
        }
        entries[ne++] = e;
        for (int j = 0; j < m->n; j++) {
            tc[m->cards[j]]++;
            colour += r->colour[m->cards[j]];
        }
        size += m->n;
        fours += r->four_rows >> (m->key / 20) & 1;
        keys[i] = m->key;
    }
    result = build(r, v, hs, n, hc, tc, win, win_card, entries, keys, nt, size, fours, colour);
    goto done;
none:
    result = Py_None;
    Py_INCREF(result);
done:
    while (ne) Py_DECREF(entries[--ne]);
    return result;
}

/* The rest of reader_call, the table read: flags, counts, checks, the Position. */
static PyObject *build(Reader *r, PyObject **v, PyObject *hs, Py_ssize_t n, int *hc, int *tc,
                       int win, PyObject *win_card, PyObject **entries, int *keys,
                       Py_ssize_t nt, int size, int fours, uint32_t colour) {
    int c, held;
    PyObject *flag[4];
    for (int f = 0; f < 4; f++) {
        flag[f] = v[K_SD + f] ? v[K_SD + f] : Py_False;
        if (!is_bool(flag[f])) Py_RETURN_NONE;
    }
    PyObject *extra = v[K_EXTRA];
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
    /* (n ≤ 27 and fours ≤ nt ≤ 7: checked above) */
    PyObject **kept = hand_size == 20 || hand_size == 14 ? &r->shape[hand_size == 14][n][nt][fours] : NULL;
    if (kept && *kept) shape = Py_NewRef(*kept);
    else {
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
        if (kept) *kept = Py_NewRef(shape);
    }
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
    /* a field at its class default is left to the class, as _read leaves it: fewer
       stores, a smaller dict (xing, wang, win_wang, pattern: always) */
    int left[19] = {[8] = 1, [9] = 1, [10] = 1, [11] = 1};
    left[0] = left[14] = nt == 0;
    for (int f = 0; f < 4; f++) left[2 + f] = flag[f] == Py_False;
    left[6] = hand_size == 20 && PyLong_CheckExact(hs);
    left[7] = ext == EMPTY;
    left[15] = up_key == -1;
    for (int i = 0; i < 19 && !bad; i++)
        if (!left[i]) bad = PyDict_SetItem(dd, key[i], val[i]) < 0;
    for (int i = 0; i < 6; i++) Py_XDECREF(made[i]);
    if (bad) goto fail;
    Py_DECREF(dd), Py_DECREF(groups), Py_DECREF(tkeys), Py_DECREF(shape), Py_DECREF(ext);
    return p;
fail:
    Py_XDECREF(p), Py_XDECREF(dd), Py_XDECREF(groups), Py_XDECREF(tkeys), Py_XDECREF(shape);
    Py_XDECREF(ext);
    return NULL;
}

static PyObject *reader_call(Reader *r, PyObject *args, PyObject *kwds) {
    PyObject *d, *hs;
    if (kwds && PyDict_GET_SIZE(kwds)) {
        PyErr_SetString(PyExc_TypeError, "read(d, hand_size) takes no keywords");
        return NULL;
    }
    if (!PyArg_UnpackTuple(args, "read", 2, 2, &d, &hs)) return NULL;
    return read_position(r, d, hs);
}

static PyObject *S_from_dict, *S_hand_size_kw, *TWENTY;

/* Position.from_dict(d, hand_size=20) as a classmethod: the common form read here, any
   other form (or a subclass) by cls._from_dict, which speaks for every error. */
static PyObject *reader_from_dict(Reader *r, PyObject *const *args, Py_ssize_t nargs,
                                  PyObject *kwnames) {
    Py_ssize_t nk = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    if (nargs < 2 || nargs + nk > 3 ||
        (nk && PyObject_RichCompareBool(PyTuple_GET_ITEM(kwnames, 0), S_hand_size_kw, Py_EQ) != 1)) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "from_dict(d, hand_size=20): one dict and the deal size");
        return NULL;
    }
    PyObject *cls = args[0], *d = args[1], *hs = nargs + nk == 3 ? args[2] : TWENTY;
    if (cls == (PyObject *)r->position) {
        PyObject *p = read_position(r, d, hs);
        if (p != Py_None) return p;
        Py_DECREF(p);
    }
    PyObject *call[3] = {cls, d, hs};
    return PyObject_VectorcallMethod(S_from_dict, call, 3, NULL);
}

static PyMethodDef reader_methods[] = {
    {"from_dict", (PyCFunction)(void (*)(void))reader_from_dict, METH_FASTCALL | METH_KEYWORDS,
     "from_dict(cls, d, hand_size=20): Position.from_dict with the common form read in C "
     "(wrapped in classmethod); every other form, and a subclass, through cls._from_dict."},
    {NULL},
};

static PyTypeObject ReaderType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "paohuzi.core._kernel.Reader",
    .tp_basicsize = sizeof(Reader),
    .tp_dealloc = (destructor)reader_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Reader(...)(d, hand_size): Position.from_dict's common form read straight "
              "(core/position.py _read), or None.",
    .tp_call = (ternaryfunc)reader_call,
    .tp_methods = reader_methods,
    .tp_new = reader_new,
};


/* ---- 算分 (suànfēn): the settlement's common path (core/scoring.py settle) ----
 * A position with a winning card and no 王 or 醒 settles here: the plan (kernel_core),
 * the memo key settle makes (flags, 听胡, colour 名堂, the id of what the 名堂 reading
 * the split earn) and the _Shared result. Those 名堂 (对子胡, 行行息, 一块匾 …) are
 * memoised by the Python path per what they read (scoring._read_key: the split's
 * profile, 胡息, red count, kinds held four times), packed here the same way and looked
 * up in its ``rids``. Rules that settle every split (``search``) take here only hands
 * that split one way. The templates (each a Settlement without its 门子) are the Python
 * path's: the same objects as its _Scorer. A template not made yet for a key and 胡息
 * is made here when the key's 名堂 are in the Python memo (template_new: 等, 底 and 黄番
 * from them, as scoring._won adds them up), else asked of ``miss`` (scoring._missed);
 * a colour count or a read key not asked yet, or a position this path does not take,
 * answers None, and the caller runs settle's Python — so every 名堂 a settlement shows
 * is still found by the Python code, and tests/test_kernel.py compares the two on
 * every preset. */
#define RCACHE 2048 /* read keys met: a few hundred per preset */
#define NTSLOT 17   /* scoring.Settlement's slots: _FIELDS, then _split */
#define WILD_FACT (1LL << 29) /* position.WILD_FACT: 王 or 醒 take part */

typedef struct {
    PyObject_HEAD
    Kernel *kernel;
    PyObject *rules;
    PyObject *ids[3];      /* per count (red, big, small): its colour 名堂's id, −1 unknown */
    PyObject *won, *below; /* (key, 胡息, 荒庄) → template; 胡息 → template below 起胡 */
    PyObject *not_winning; /* the one settlement of every hand without a shape */
    PyObject *miss;        /* (rules, position, key, 胡息, 荒庄, plan) → the won template */
    PyObject *rids;        /* read key → id of the residual 名堂's verdicts */
    PyTypeObject *shared;  /* scoring._Shared */
    PyObject *slot[4];     /* its member descriptors: _t, _rules, _p, _plan */
    /* A template of a key whose 名堂 are known (scoring._won's arithmetic, R34–R37):
       ``memo`` (key → doubled, doublings, 名堂, 底 set or None, units, 番), the
       Settlement type and its 17 slots, 等's base/step/offset, the unit and the 黄番
       of 1, 2 … 荒庄; ``memo`` NULL: every template is asked of ``miss``. */
    PyObject *memo, *unit;
    PyTypeObject *settlement;
    PyObject *tslot[NTSLOT];
    long dbase, dstep, doffset, nhfan, hfan[8];
    int min_huxi, colour;  /* 起胡; whether any colour 名堂 counts */
    int tinghu, search;    /* 听胡 counts (read extra); every split settled (one-way only here) */
    long long rmask;       /* what the residual 名堂 read (0: none counts) */
    /* core/refusals.py: per residual 名堂 with a test at sight, (its bit, the test, a, b);
       ``masks[live]`` what those of the set ``live`` read (``every``: all of them) */
    int nsight, every;
    struct {
        int bit, test;
        long long a, b;
    } sight[8];
    long long masks[256];
    /* read key → id, as met in ``rids``: an id never changes (scoring._Scorer keeps the
       verdicts' ids for good, clearing only ``rids``), so a hit here needs no dict */
    struct {
        long long rk;
        int live;
        long id;
    } rcache[RCACHE];
} Settler;

/* scoring._read_key's layout: profile bits 0–23, 胡息 10 bits, red 8, kinds with 4: 20. */
#define R_HUXI 24
#define R_RED 34
#define R_FOURS 42
#define R_PROFILE ((1LL << 24) - 1)
#define R_KINDS (((1LL << 20) - 1) << R_FOURS)

static void settler_dealloc(Settler *s) {
    Py_XDECREF(s->kernel);
    Py_XDECREF(s->rules);
    for (int i = 0; i < 3; i++) Py_XDECREF(s->ids[i]);
    Py_XDECREF(s->won);
    Py_XDECREF(s->below);
    Py_XDECREF(s->not_winning);
    Py_XDECREF(s->miss);
    Py_XDECREF(s->rids);
    Py_XDECREF(s->shared);
    for (int i = 0; i < 4; i++) Py_XDECREF(s->slot[i]);
    Py_XDECREF(s->memo);
    Py_XDECREF(s->unit);
    Py_XDECREF(s->settlement);
    for (int i = 0; i < NTSLOT; i++) Py_XDECREF(s->tslot[i]);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

/* core/refusals.py's tests (Refusal.test) */
enum { NO_DUIZI, NO_EIGHT, BARE, RED_OUTSIDE, EXACT };

/* The refusals at sight: ``sights`` (bit, test, a, b) per residual 名堂 with one, ``masks``
   what each set of live ones reads (2^n of them, the last ``rmask``); none: all of them
   are always live (one set, ``every`` 1; none with no residual 名堂). 0, or −1 with an
   error set. */
static int read_sights(Settler *s, PyObject *sights, PyObject *masks, long long rmask) {
    Py_ssize_t nm = masks ? PyTuple_GET_SIZE(masks) : 0, n = sights ? PyTuple_GET_SIZE(sights) : 0;
    s->nsight = 0, s->every = rmask != 0, s->masks[s->every] = rmask;
    if (!n && !nm) return 0;
    if (nm < 2 || nm > 256 || nm & (nm - 1) || n > 8) {
        PyErr_SetString(PyExc_ValueError, "masks: 2 to 256 read masks, a power of 2; sights: at most 8");
        return -1;
    }
    s->every = (int)nm - 1;
    for (Py_ssize_t i = 0; i < nm; i++) {
        long long m = PyLong_AsLongLong(PyTuple_GET_ITEM(masks, i));
        if (m == -1 && PyErr_Occurred()) return -1;
        if (m < 0 || m & ~rmask || (i == nm - 1 && m != rmask)) {
            PyErr_SetString(PyExc_ValueError, "masks: parts of rmask, the last rmask itself");
            return -1;
        }
        s->masks[i] = m;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *t = PyTuple_GET_ITEM(sights, i);
        int bit, test;
        long long a, b;
        if (!PyArg_ParseTuple(t, "iiLL;sights: (bit, test, a, b)", &bit, &test, &a, &b)) return -1;
        if (bit <= 0 || bit & (bit - 1) || bit > s->every || test < NO_DUIZI || test > EXACT) {
            PyErr_SetString(PyExc_ValueError, "sights: a bit of a live set and a known test");
            return -1;
        }
        s->sight[i].bit = bit, s->sight[i].test = test, s->sight[i].a = a, s->sight[i].b = b;
    }
    s->nsight = (int)n;
    return 0;
}

/* A slot's member descriptor of ``type``, a new reference; NULL with an error. */
static PyObject *slot_of(PyTypeObject *type, PyObject *name) {
    PyObject *d = PyObject_GetAttr((PyObject *)type, name);
    if (d && !Py_TYPE(d)->tp_descr_set) {
        PyErr_Format(PyExc_TypeError, "%s: %R is not a slot", type->tp_name, name);
        Py_CLEAR(d);
    }
    return d;
}

/* ``templates``: (memo, Settlement, its 17 slot names, 等's base, step and offset, unit, 黄番):
   what template_new reads. 0, or −1 with an error set. */
static int read_templates(Settler *s, PyObject *templates) {
    PyObject *memo, *names, *unit, *hfan;
    PyTypeObject *st;
    if (!PyArg_ParseTuple(templates, "O!O!O!lllUO!;templates: (memo, Settlement, slots, base, step, "
                          "offset, unit, huang fan)", &PyDict_Type, &memo, &PyType_Type, &st,
                          &PyTuple_Type, &names, &s->dbase, &s->dstep, &s->doffset, &unit,
                          &PyTuple_Type, &hfan))
        return -1;
    if (PyTuple_GET_SIZE(names) != NTSLOT || s->dstep < 1 || PyTuple_GET_SIZE(hfan) > 8) {
        PyErr_SetString(PyExc_ValueError, "templates: 17 slots, a step of at least 1, at most 8 黄番");
        return -1;
    }
    s->nhfan = (long)PyTuple_GET_SIZE(hfan);
    for (long i = 0; i < s->nhfan; i++) {
        s->hfan[i] = PyLong_AsLong(PyTuple_GET_ITEM(hfan, i));
        if (s->hfan[i] == -1 && PyErr_Occurred()) return -1;
        if (s->hfan[i] < 0 || s->hfan[i] > 1L << 20) {
            PyErr_SetString(PyExc_ValueError, "templates: a 黄番 of 0 to 2^20");
            return -1;
        }
    }
    /* template_new fills them in this order (scoring._FIELDS, then _split) */
    static const char *order[NTSLOT] = {
        "_win",   "_huxi",  "_scored_huxi", "_deng",    "_fan",  "_di",
        "_mingtang", "_groups", "_group_huxi", "_error", "_doubled", "_zimo",
        "_huang_multiplier", "_xing", "_unit", "_wang", "_split"};
    for (int i = 0; i < NTSLOT; i++) {
        PyObject *name = PyTuple_GET_ITEM(names, i);
        if (!PyUnicode_Check(name) || PyUnicode_CompareWithASCIIString(name, order[i])) {
            PyErr_Format(PyExc_ValueError, "templates: slot %d must be %s, got %R", i, order[i],
                         name);
            return -1;
        }
        if (!(s->tslot[i] = slot_of(st, name))) return -1;
    }
    s->memo = Py_NewRef(memo), s->unit = Py_NewRef(unit);
    s->settlement = (PyTypeObject *)Py_NewRef((PyObject *)st);
    return 0;
}

static PyObject *settler_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    static char *kw[] = {"kernel", "rules", "min_huxi", "ids", "won", "below", "not_winning",
                         "shared", "colour", "miss", "rmask", "rids", "tinghu", "search",
                         "sights", "masks", "templates", NULL};
    Kernel *kernel;
    PyObject *rules, *ids, *won, *below, *nw, *miss, *rids, *sights = NULL, *masks = NULL;
    PyObject *templates = NULL;
    PyTypeObject *shared;
    int min_huxi, colour, tinghu, search;
    long long rmask;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!OiO!O!O!OO!pOLO!pp|O!O!O!:Settler", kw,
                                     &KernelType, &kernel, &rules, &min_huxi, &PyTuple_Type, &ids,
                                     &PyDict_Type, &won, &PyDict_Type, &below, &nw, &PyType_Type,
                                     &shared, &colour, &miss, &rmask, &PyDict_Type, &rids,
                                     &tinghu, &search, &PyTuple_Type, &sights, &PyTuple_Type,
                                     &masks, &PyTuple_Type, &templates))
        return NULL;
    if (!PyCallable_Check(miss)) {
        PyErr_SetString(PyExc_TypeError, "miss must be callable");
        return NULL;
    }
    if (rmask < 0 || rmask >= 1LL << 62) {
        PyErr_SetString(PyExc_ValueError, "rmask: a mask of scoring._read_key's 62 bits");
        return NULL;
    }
    if ((rmask & R_PROFILE || search) && !kernel->has_prof) {
        PyErr_SetString(PyExc_ValueError, "the kernel was made without profiles");
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
    if (read_sights(s, sights, masks, rmask) < 0) {
        Py_DECREF(s);
        return NULL;
    }
    for (int i = 0; i < 3; i++) s->ids[i] = Py_NewRef(PyTuple_GET_ITEM(ids, i));
    if (templates && read_templates(s, templates) < 0) goto fail;
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
    Py_INCREF(nw), Py_INCREF(shared), Py_INCREF(miss), Py_INCREF(rids);
    s->miss = miss, s->kernel = kernel, s->rules = rules, s->won = won, s->below = below;
    s->not_winning = nw, s->shared = shared, s->rids = rids;
    s->min_huxi = min_huxi, s->colour = colour, s->tinghu = tinghu, s->search = search;
    s->rmask = rmask;
    for (int i = 0; i < RCACHE; i++) s->rcache[i].rk = -1;
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

/* The key of ``won``: (memo key, 胡息, 荒庄), a new reference (NULL: error set). Made by
   hand: Py_BuildValue's format parsing cost a tenth of a warm settlement. */
static PyObject *won_key(PyObject *key, long v, PyObject *huang) {
    PyObject *t = PyTuple_New(3), *h = PyLong_FromLong(v);
    if (!t || !h) {
        Py_XDECREF(t);
        Py_XDECREF(h);
        return NULL;
    }
    PyTuple_SET_ITEM(t, 0, Py_NewRef(key));
    PyTuple_SET_ITEM(t, 1, h);
    PyTuple_SET_ITEM(t, 2, Py_NewRef(huang));
    return t;
}

/* scoring._won's template for ``key`` with 胡息 ``v`` after ``huang`` 荒庄 when the key's
   名堂 are in ``memo`` (R34: 等 of the doubled 胡息, or the 底 a 名堂 sets, plus the units;
   R35, R36: 番; R32: 黄番), kept in ``won`` as _won keeps it: a new reference; NULL with
   no error set when the key is not in the memo (its 名堂 are asked in Python) or a value
   is out of this path's range. No 醒 on this path (a position with 醒 goes to Python). */
static PyObject *template_new(Settler *s, PyObject *key, long v, PyObject *huang, long long facts) {
    if (!s->memo || !PyLong_CheckExact(huang)) return NULL;
    PyObject *got = PyDict_GetItemWithError(s->memo, key); /* borrowed */
    if (!got) return NULL;
    if (!PyTuple_CheckExact(got) || PyTuple_GET_SIZE(got) != 6) {
        PyErr_SetString(PyExc_TypeError, "memo: (doubled, doublings, 名堂, 底, units, 番)");
        return NULL;
    }
    int over = 0;
    long n = PyLong_AsLong(PyTuple_GET_ITEM(got, 1)), hw = PyLong_AsLongAndOverflow(huang, &over);
    PyObject *base = PyTuple_GET_ITEM(got, 3), *fo = PyTuple_GET_ITEM(got, 5);
    long long units = PyLong_AsLongLong(PyTuple_GET_ITEM(got, 4)), fan = PyLong_AsLongLong(fo);
    long long b = base == Py_None ? 0 : PyLong_AsLongLong(base);
    if (PyErr_Occurred()) return NULL;
    if (over || n < 0 || n > 8 || hw < 0 || fan < 0 || fan > 1LL << 30 || units < -(1LL << 30) ||
        units > 1LL << 30 || b < -(1LL << 30) || b > 1LL << 30)
        return NULL; /* (the Python arithmetic: unbounded ints) */
    long long h2 = (long long)v << n, deng;
    if (base == Py_None) { /* DengRule.__call__: max(0, offset + floor((h - base) / step)) */
        long long d = h2 - s->dbase, q = d / s->dstep;
        if (d % s->dstep && d < 0) q--;
        deng = s->doffset + q > 0 ? s->doffset + q : 0;
    } else
        deng = b;
    deng += units;
    long long mult = hw > 0 && s->nhfan ? s->hfan[(hw < s->nhfan ? hw : s->nhfan) - 1] : 1;
    PyObject *v_[NTSLOT] = {
        Py_True, PyLong_FromLong(v), PyLong_FromLongLong(h2), PyLong_FromLongLong(deng),
        Py_NewRef(fo), PyLong_FromLongLong(deng * fan * mult), Py_NewRef(PyTuple_GET_ITEM(got, 2)),
        Py_NewRef(EMPTY), Py_NewRef(EMPTY), Py_None, Py_NewRef(PyTuple_GET_ITEM(got, 0)),
        facts & 5 ? Py_True : Py_False, PyLong_FromLongLong(mult), PyLong_FromLong(0),
        Py_NewRef(s->unit), Py_NewRef(EMPTY), Py_None};
    static const int borrowed[] = {0, 9, 11, 16};
    for (int i = 0; i < 4; i++) Py_INCREF(v_[borrowed[i]]);
    PyObject *t = NULL, *wk = NULL;
    for (int i = 0; i < NTSLOT; i++)
        if (!v_[i]) goto done;
    if (!(t = s->settlement->tp_alloc(s->settlement, 0))) goto done;
    for (int i = 0; i < NTSLOT; i++)
        if (Py_TYPE(s->tslot[i])->tp_descr_set(s->tslot[i], t, v_[i]) < 0) {
            Py_CLEAR(t);
            goto done;
        }
    if (PyDict_GET_SIZE(s->won) >= 1 << 14) PyDict_Clear(s->won); /* bounded, as _won's */
    if (!(wk = won_key(key, v, huang)) || PyDict_SetItem(s->won, wk, t) < 0)
        Py_CLEAR(t);
done:
    for (int i = 0; i < NTSLOT; i++) Py_XDECREF(v_[i]);
    Py_XDECREF(wk);
    return t;
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

static PyObject *S_tinghu;

/* dict(position.extra).get("tinghu") as truth: 1, 0, −1 on error, −2 for an extra this
   path does not read (not a tuple of pairs: the Python path answers). */
static int tinghu_of(PyObject *dd, PyObject *pos) {
    PyObject *ex = field(dd, pos, F_extra);
    if (!ex) return -1;
    int got = 0;
    if (!PyTuple_Check(ex)) got = -2;
    for (Py_ssize_t i = 0; got >= 0 && i < PyTuple_GET_SIZE(ex); i++) {
        PyObject *kv = PyTuple_GET_ITEM(ex, i);
        if (!PyTuple_Check(kv) || PyTuple_GET_SIZE(kv) != 2 ||
            !PyUnicode_CheckExact(PyTuple_GET_ITEM(kv, 0)))
            got = -2;
        else if (PyUnicode_Compare(PyTuple_GET_ITEM(kv, 0), S_tinghu) == 0)
            got = PyObject_IsTrue(PyTuple_GET_ITEM(kv, 1)); /* (the last one counts) */
    }
    Py_DECREF(ex);
    return got;
}

/* The position's card_bits into ``*bits``, read once (0: not yet): 0, or −1 (error). */
static int card_bits(PyObject *dd, PyObject *pos, uint64_t *bits) {
    if (*bits) return 0;
    PyObject *cb = field(dd, pos, F_card_bits);
    if (!cb) return -1;
    int bad = read_packed(cb, bits);
    Py_DECREF(cb);
    return bad < 0 ? -1 : 0;
}

/* scoring._read_key of a split with profile ``prof`` and 胡息 ``v`` for the residual
   名堂 of ``live``: −1 (error set), −2 (ask Python). ``bits``: the position's
   card_bits, read once (0: not yet). */
static long long read_key(Settler *s, PyObject *dd, PyObject *pos, long long prof, long v,
                          long long facts, uint64_t *bits, int live) {
    if (v >= 1023) return -2; /* (the Python path keeps no memo there) */
    long long m = live == s->every ? s->rmask : s->masks[live];
    long long r = prof | (long long)v << R_HUXI | (facts >> 21 & 0xFF) << R_RED;
    if (m & R_KINDS) {
        if (card_bits(dd, pos, bits) < 0) return -1;
        for (uint64_t f = *bits >> 2 & LOW; f; f &= f - 1)
            r |= 1LL << (R_FOURS + __builtin_ctzll(f) / 3);
    }
    return r & m;
}

/* scoring._live: the residual 名堂 not refused at sight (core/refusals.py) for a hand
   whose splits have at most ``most`` 胡息; −1 (error set). */
static int live_of(Settler *s, PyObject *dd, PyObject *pos, uint64_t packed, long long tprof,
                   int win, long most, long long facts, uint64_t *bits) {
    int live = s->every;
    for (int i = 0; i < s->nsight; i++) {
        long long a = s->sight[i].a, b = s->sight[i].b;
        int no = 0;
        uint64_t x = packed, once = x & ~(x >> 1) & ~(x >> 2) & LOW & ~BIT(win);
        switch (s->sight[i].test) {
        case NO_DUIZI: /* a 吃 on the table, or a lone card */
            no = (tprof >> 4 & 15) || once;
            break;
        case NO_EIGHT: { /* no point with its eight cards held */
            if (card_bits(dd, pos, bits) < 0) return -1;
            uint64_t f = *bits >> 2 & LOW;
            no = !(f & 0x3fffffffULL & f >> 30);
            break;
        }
        case BARE: { /* a bare 门子 on the table; a loose kind held once, or twice */
            uint64_t lz = (uint64_t)a & ~BIT(win), twice = x >> 1 & ~(x | x >> 2) & lz;
            no = (tprof >> 12 & 15) || (once & lz) || (b ? (twice & (twice - 1)) != 0 : twice != 0);
            break;
        }
        case RED_OUTSIDE: {
            long long red = facts >> 21 & 0xFF;
            no = red < a || red > b;
            break;
        }
        case EXACT:
            no = most < a;
            break;
        }
        if (no) live &= ~s->sight[i].bit;
    }
    return live;
}

/* The memo key of a split: ``k`` (flags, 听胡, colour 名堂) with the id scoring._residual
   keeps for read key ``rk`` — (rk, live) unless every residual 名堂 is ``live`` — above
   the colour bytes (none with none live): 1, 0 (not asked yet), −1 (error). */
static int full_key(Settler *s, long long k, long long rk, int live, long long *out) {
    *out = k;
    if (!live) return 1;
    int slot = (int)((unsigned long long)(rk ^ (long long)live << 56) * 0x9E3779B97F4A7C15ULL >> 53);
    if (s->rcache[slot].rk != rk || s->rcache[slot].live != live) {
        PyObject *rid = lookup(s->rids, live == s->every ? PyLong_FromLongLong(rk)
                                                         : Py_BuildValue("(Li)", rk, live));
        if (!rid) return PyErr_Occurred() ? -1 : 0;
        long id = PyLong_AsLong(rid);
        Py_DECREF(rid);
        if (id < 0 || id >= 1L << 24) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "rids: a bad id");
            return -1;
        }
        s->rcache[slot].rk = rk, s->rcache[slot].live = live, s->rcache[slot].id = id;
    }
    *out = k | (long long)s->rcache[slot].id << 30;
    return 1;
}

/* The template of a split from the Python memos: new reference; NULL with no error when
   not made yet (its read key not asked, or no template for its key and 胡息). */
static PyObject *template_of(Settler *s, long long k, long long rk, int live, long v,
                             PyObject *huang) {
    long long kk;
    if (full_key(s, k, rk, live, &kk) <= 0) return NULL;
    PyObject *key = PyLong_FromLongLong(kk);
    if (!key) return NULL;
    PyObject *t = lookup(s->won, won_key(key, v, huang));
    Py_DECREF(key);
    return t;
}

/* ---- R46: a hand of several splits, under rules whose 名堂 read the split ----
 * Every split's (胡息, profile), each once (HandEvaluator.outcomes: the uses of the
 * winning card count_splits counts, the 绞 of each point, each size's splits), no
 * group made; scoring._search settles each from the memo and keeps the plan's unless
 * another is worth more (then the Python path builds that split's groups). */
typedef struct {
    int h;
    long long p;
} Outcome;
#define MAXOUT 256

typedef struct {
    Outcome o[MAXOUT];
    int n, full;
} Outcomes;

static void add_outcome(Outcomes *out, int h, long long p) {
    for (int i = 0; i < out->n; i++)
        if (out->o[i].h == h && out->o[i].p == p) return;
    if (out->n == MAXOUT) out->full = 1;
    else out->o[out->n++] = (Outcome){h, p};
}

/* _SizeTable.outcomes: every split of one size (each multiset once, as size_count). */
static void size_outcomes(const Kernel *k, int s, uint32_t key, int pair, int floor, int h,
                          long long p, Outcomes *out) {
    if (!key) {
        if (!pair) add_outcome(out, h, p);
        return;
    }
    const Size *t = &k->size[s];
    int sh = __builtin_ctz(key) / 3 * 3, q = sh / 3;
    for (int opt = floor; opt < 3; opt++) {
        uint32_t nxt;
        if (opt == 0 && q <= 7 && (key >> (sh + 3)) & 7 && (key >> (sh + 6)) & 7) {
            nxt = key - ((1u | 1u << 3 | 1u << 6) << sh);
            size_outcomes(k, s, nxt, pair, (nxt >> sh) & 7 ? opt : 0, h + t->run[q], p + k->prun[s][q], out);
        } else if (opt == 1 && q == 1 && (key >> 18) & 7 && (key >> 27) & 7) {
            nxt = key - (1u << 3 | 1u << 18 | 1u << 27);
            size_outcomes(k, s, nxt, pair, (nxt >> sh) & 7 ? opt : 0, h + t->v2710, p + k->p2710[s], out);
        } else if (opt == 2 && pair && ((key >> sh) & 7) >= 2) {
            nxt = key - (2u << sh);
            size_outcomes(k, s, nxt, 0, (nxt >> sh) & 7 ? opt : 0, h + t->pair[q], p + k->ppair[s][q], out);
        }
    }
}

/* HandEvaluator.rest_outcomes, each added to ``out`` with (h0, p0) more. */
static void rest_outcomes(const Kernel *k, uint64_t rest, int pair, int h0, long long p0,
                          Outcomes *out) {
    uint32_t s = (uint32_t)(rest & 0x3fffffff), b = (uint32_t)(rest >> 30);
    uint32_t cs[243], cb[243];
    int ch[243], n = 1;
    long long cp[243];
    cs[0] = s, cb[0] = b, ch[0] = 0, cp[0] = 0;
    for (int q = 0; q < 10; q++) { /* a 绞: 2 小 + 1 大 or 1 小 + 2 大 of one point */
        uint32_t ns = s >> 3 * q & 7, nb = b >> 3 * q & 7, bit = 1u << 3 * q;
        if (ns + nb < 3 || !ns || !nb) continue;
        int old = n;
        for (int i = 0; i < old; i++) {
            if (n + 2 > 243) {
                out->full = 1;
                return;
            }
            if (ns >= 2) cs[n] = cs[i] - 2 * bit, cb[n] = cb[i] - bit, ch[n] = ch[i] + k->jiao[q],
                         cp[n++] = cp[i] + k->pjiao[q];
            if (nb >= 2) cs[n] = cs[i] - bit, cb[n] = cb[i] - 2 * bit, ch[n] = ch[i] + k->jiao[q],
                         cp[n++] = cp[i] + k->pjiao[q];
        }
    }
    Outcomes *sz = PyMem_Malloc(2 * sizeof(Outcomes)); /* (one size's, the other's) */
    if (!sz) {
        out->full = 1;
        return;
    }
    for (int i = 0; i < n; i++)
        for (int side = 0; side < (pair ? 2 : 1); side++) {
            sz[0].n = sz[0].full = sz[1].n = sz[1].full = 0;
            size_outcomes(k, 0, cs[i], pair && side == 0, 0, 0, 0, &sz[0]);
            size_outcomes(k, 1, cb[i], pair && side == 1, 0, 0, 0, &sz[1]);
            if (sz[0].full || sz[1].full) out->full = 1;
            for (int a = 0; a < sz[0].n; a++)
                for (int c = 0; c < sz[1].n; c++)
                    add_outcome(out, h0 + ch[i] + sz[0].o[a].h + sz[1].o[c].h,
                                p0 + cp[i] + sz[0].o[a].p + sz[1].o[c].p);
        }
    PyMem_Free(sz);
}

/* HandEvaluator.outcomes (the caller has checked a shape: no four in hand). */
static void split_outcomes(const Kernel *k, uint64_t packed, long long tprof, const int *sh,
                           long up_key, int win, int sd, int table_huxi, Outcomes *out) {
    uint64_t mask = packed & (packed >> 1) & LOW, rest = packed - 3 * mask;
    int h0 = table_huxi;
    long long p0 = tprof;
    for (uint64_t m = mask; m; m &= m - 1) {
        int c = __builtin_ctzll(m) / 3;
        h0 += k->kan[c], p0 += k->pcard[0][c];
    }
    if (sh[1]) {
        rest_outcomes(k, rest + BIT(win), sh[0], h0, p0, out);
        if (((rest >> (3 * win)) & 7) == 2)
            rest_outcomes(k, rest - 2 * BIT(win), sh[0], h0 + (sd ? k->wei : k->peng)[win],
                          p0 + k->pcard[sd ? 2 : 1][win], out);
    }
    const long long *four = k->pcard[sd ? 4 : 3];
    if (sh[2] && (mask >> (3 * win)) & 1)
        rest_outcomes(k, rest, 1, h0 + (sd ? k->ti : k->pao)[win] - k->kan[win],
                      p0 + four[win] - k->pcard[0][win], out);
    else if (sh[2] && up_key >= 0)
        rest_outcomes(k, rest, 1, h0 + (sd ? k->gain_ti : k->gain_pao)[up_key],
                      p0 + (up_key < 20 ? k->pcard[3] : four)[win] - k->pkey[up_key], out);
}

/* outcomes_of(position): HandEvaluator.outcomes, a set of (胡息, profile); None when
   there are more than MAXOUT (never in a real hand). */
static PyObject *kernel_outcomes_of(Kernel *self, PyObject *pos) {
    uint64_t packed;
    int huxi, sh[3], up, win, sd;
    long uk;
    long long tprof;
    int r = read_profiled(self, pos, "outcomes_of", &packed, &huxi, sh, &up, &win, &sd, &uk, &tprof);
    if (r < 0) return NULL;
    PyObject *set = PySet_New(NULL);
    if (!set || r == 0 || packed & FOURS) return set;
    Outcomes *out = PyMem_Malloc(sizeof(Outcomes));
    if (!out) {
        Py_DECREF(set);
        return PyErr_NoMemory();
    }
    out->n = out->full = 0;
    split_outcomes(self, packed, tprof, sh, uk, win, sd, huxi, out);
    for (int i = 0; i < out->n && set; i++) {
        PyObject *o = Py_BuildValue("(iL)", out->o[i].h, out->o[i].p);
        if (!o || PySet_Add(set, o) < 0) Py_CLEAR(set);
        Py_XDECREF(o);
    }
    if (set && out->full) Py_SETREF(set, Py_NewRef(Py_None));
    PyMem_Free(out);
    return set;
}

static PyObject *S_di, *S_huxi;

/* (di, 胡息) of a template: 1, or −1 on error. */
static int worth(PyObject *t, long long *di, long *huxi) {
    PyObject *a = PyObject_GetAttr(t, S_di), *b = a ? PyObject_GetAttr(t, S_huxi) : NULL;
    *di = a ? PyLong_AsLongLong(a) : -1;
    *huxi = b ? PyLong_AsLong(b) : -1;
    Py_XDECREF(a);
    Py_XDECREF(b);
    return PyErr_Occurred() ? -1 : 1;
}

/* scoring._search where the plan's split stays the best: its template ``t`` (borrowed)
   back as a new reference, or NULL (no error: ask Python — a template or read key not
   made yet, or another split worth more). */
static PyObject *search(Settler *s, PyObject *dd, PyObject *pos, PyObject *t, long long k,
                        uint64_t packed, long long tprof, const int *sh, long uk, int win, int sd,
                        int table_huxi, long long facts, PyObject *huang, uint64_t *bits,
                        int live) {
    long long di, udi;
    long huxi, uh;
    if (worth(t, &di, &huxi) < 0) return NULL;
    Outcomes *out = PyMem_Malloc(sizeof(Outcomes));
    if (!out) return PyErr_NoMemory();
    out->n = out->full = 0;
    split_outcomes(s->kernel, packed, tprof, sh, uk, win, sd, table_huxi, out);
    int best = !out->full;
    for (int i = 0; best && i < out->n; i++) {
        if (out->o[i].h < s->min_huxi) continue;
        long long rk =
            read_key(s, dd, pos, out->o[i].p & R_PROFILE, out->o[i].h, facts, bits, live);
        PyObject *u = rk < 0 ? NULL : template_of(s, k, rk, live, out->o[i].h, huang);
        best = u && worth(u, &udi, &uh) > 0 && (udi < di || (udi == di && uh <= huxi));
        Py_XDECREF(u);
    }
    PyMem_Free(out);
    return best ? Py_NewRef(t) : NULL;
}

/* settle(position, huang): scoring.settle's common path, or None ("ask Python"). */
static PyObject *settler_settle(Settler *s, PyObject *const *args, Py_ssize_t n) {
    if (n != 2) {
        PyErr_SetString(PyExc_TypeError, "settle(position, huang) takes 2 arguments");
        return NULL;
    }
    PyObject *pos = args[0], *huang = args[1], *dd = dict_of(s->kernel, pos);
    PyObject *t = NULL, *out = NULL;
    int a;
    /* Position.facts (read once: a win's memo key is made of it) says whether 王 or 醒
       take part (WILD_FACT); a position not an exact Position is asked field by field */
    PyObject *fo = field(dd, pos, F_facts);
    if (!fo) goto done;
    long long facts = PyLong_AsLongLong(fo);
    Py_DECREF(fo);
    if (facts == -1 && PyErr_Occurred()) goto done;
    if (facts & WILD_FACT) goto done; /* 王 or 醒: the Python path (None) */
    if (!dd && ((a = absent(dd, pos, F_wang)) <= 0 || (a = absent(dd, pos, F_win_wang)) <= 0 ||
                (a = absent(dd, pos, F_xing)) <= 0))
        goto done; /* 王 or 醒: the Python path (None), or an error */
    uint64_t packed, bits = 0;
    int huxi, sh[3], up, win, sd;
    long uk;
    long long tprof;
    int r = read_fields(s->kernel, pos, dd, &packed, &huxi, sh, &up, &win, &sd, &uk, &tprof);
    if (r <= 0) goto done; /* a mandatory 天胡: the Python path */
    long long plan[8] = {0};
    long v = kernel_core(s->kernel, packed, huxi, sh[0], sh[1], sh[2], up, win, sd, plan);
    if (v == -2) goto done;
    if (!plan[3]) {
        out = Py_NewRef(s->not_winning);
        goto done;
    }
    if (v < s->min_huxi) {
        t = lookup(s->below, PyLong_FromLong(v));
    } else {
        int live = live_of(s, dd, pos, packed, tprof, win, v, facts, &bits);
        if (live < 0) goto done;
        /* R46: another split may be worth more, unless no live 名堂 reads any */
        int several = live && s->search && count_splits(s->kernel, packed, sh, uk, win) > 1;
        if (live && s->search && !several) /* one split: an EXACT 名堂 reads the plan's 胡息 */
            for (int i = 0; i < s->nsight; i++)
                if (s->sight[i].test == EXACT && v != s->sight[i].a) live &= ~s->sight[i].bit;
        long long k = facts & 31;
        if (s->tinghu) {
            int th = tinghu_of(dd, pos);
            if (th < 0) goto done; /* an error, or an extra for the Python path */
            if (th) k |= 32;
        }
        if (s->colour) /* scoring._colour_ids: a byte each above the flags */
            for (int a = 0; a < 3; a++) {
                static const int at[3] = {21, 13, 5}; /* Position.facts' counts */
                Py_ssize_t c = (Py_ssize_t)(facts >> at[a] & 0xFF);
                if (c >= PyList_GET_SIZE(s->ids[a])) goto done;
                long id = PyLong_AsLong(PyList_GET_ITEM(s->ids[a], c));
                if (id < 0) goto done; /* not asked yet (or an error, kept) */
                k |= (long long)id << (6 + 8 * a);
            }
        long long rk = 0;
        if (live) { /* what the 名堂 reading the split read of the plan's split */
            long long prof = 0, m = live == s->every ? s->rmask : s->masks[live];
            if (m & R_PROFILE) {
                prof = plan_profile(s->kernel, packed, tprof, uk, win, sd, plan,
                                    (m & P_SPLIT) != 0);
                if (prof < 0) goto done;
            }
            if ((rk = read_key(s, dd, pos, prof, v, facts, &bits, live)) < 0) goto done;
        }
        long long kk;
        int got = full_key(s, k, rk, live, &kk);
        if (got <= 0) goto done; /* a read key not asked yet: the Python path */
        PyObject *key = PyLong_FromLongLong(kk);
        if (!key) goto done;
        t = lookup(s->won, won_key(key, v, huang));
        if (!t && !PyErr_Occurred()) /* a key not seen with this 胡息: its 名堂 known? */
            t = template_new(s, key, v, huang, facts);
        if (!t && !PyErr_Occurred()) { /* a new key: Python makes it */
            PyObject *pl = plan_tuple(plan), *h = PyLong_FromLong(v);
            if (pl && h) t = PyObject_CallFunctionObjArgs(s->miss, s->rules, pos, key, h, huang, pl, NULL);
            Py_XDECREF(pl);
            Py_XDECREF(h);
        }
        Py_DECREF(key);
        if (t && several) {
            PyObject *kept = search(s, dd, pos, t, k, packed, tprof, sh, uk, win, sd, huxi, facts,
                                    huang, &bits, live);
            Py_DECREF(t);
            t = kept;
        }
    }
    if (t) {
        out = shared_new(s, t, pos);
        Py_DECREF(t);
    }
done:
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
    int16_t alone[3][20]; /* a 将, a triple, a four of each kind (fixed groups' prices) */
    int16_t loose[3];     /* 王 alone: the most 胡息 of a 将; a 坎, 句 or 绞; a 提 (any kinds) */
    int16_t lprice[3][64];  /* … each such group's 胡息, in wang._ALONE's order */
    int8_t lkind[3][64][4]; /* … and its kinds (loose_kinds; nl[t] = 0 when not given) */
    int nloose[3], nl[3];
    int16_t flat[NMELD];  /* a table meld's 胡息 by Group.key (rows of MELD_ROWS × kind) */
    WMemo *memo;
    int used;
    Kernel *sizes; /* the same grid's evaluator (no 一五十): a rest with no 王 left is read
                      from its size tables (NULL: walked) */
} Wild;

static void wild_dealloc(Wild *w) {
    PyMem_Free(w->memo);
    Py_XDECREF(w->sizes);
    Py_TYPE(w)->tp_free((PyObject *)w);
}

/* loose_kinds: for 2, 3 and 4 王 alone, the kinds of each group of ``loose`` (same order,
   same length): what Wild.classes_of needs to count their colours and 醒. */
static int read_loose_kinds(Wild *w, PyObject *lk) {
    PyObject *f = PySequence_Fast(lk, "loose_kinds must be 3 sequences");
    if (!f) return -1;
    int bad = PySequence_Fast_GET_SIZE(f) != 3;
    for (int t = 0; t < 3 && !bad; t++) {
        PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(f, t), "loose_kinds[t]");
        if (!row) {
            Py_DECREF(f);
            return -1;
        }
        bad = PySequence_Fast_GET_SIZE(row) != w->nloose[t];
        for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(row) && !bad; k++) {
            int ks[4];
            PyObject *g = PySequence_Fast_GET_ITEM(row, k);
            bad = !PySequence_Check(g) || PySequence_Size(g) != t + 2 ||
                  read_ints(g, ks, t + 2, "a loose group's kinds") < 0;
            for (int j = 0; j < t + 2 && !bad; j++) {
                bad = ks[j] < 0 || ks[j] > 19;
                w->lkind[t][k][j] = (int8_t)ks[j];
            }
        }
        Py_DECREF(row);
        if (!bad) w->nl[t] = w->nloose[t];
    }
    Py_DECREF(f);
    if (bad) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError,
                            "loose_kinds: per 2, 3, 4 王, the kinds (0..19) of each loose group");
        return -1;
    }
    return 0;
}

/* Wild(shapes, alone, flat, loose, loose_kinds=None, sizes=None): shapes[c] = [(other
   kinds, kind code, 胡息), …] in _SHAPES[c]'s order; alone = (将, triple, four) × 20
   prices; loose = the prices of the groups 2, 3 and 4 王 alone form (wang._ALONE); sizes =
   the Kernel of the same 胡息 grid without 一五十. */
static PyObject *wild_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    static char *kw[] = {"shapes", "alone", "flat", "loose", "loose_kinds", "sizes", NULL};
    PyObject *shapes, *alone, *flat, *loose, *lkinds = NULL, *sizes = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOO|OO!:Wild", kw, &shapes, &alone, &flat,
                                     &loose, &lkinds, &KernelType, &sizes))
        return NULL;
    Wild *w = (Wild *)type->tp_alloc(type, 0);
    if (!w) return NULL;
    w->sizes = (Kernel *)Py_XNewRef(sizes);
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
    PyObject *lf = PySequence_Fast(loose, "loose must be 3 sequences of prices");
    if (!lf) goto fail;
    bad = PySequence_Fast_GET_SIZE(lf) != 3;
    for (int t = 0; t < 3 && !bad; t++) {
        int v[64];
        PyObject *row = PySequence_Fast_GET_ITEM(lf, t);
        Py_ssize_t n = PySequence_Check(row) ? PySequence_Size(row) : -1;
        bad = n < 1 || n > 64 || read_ints(row, v, n, "loose") < 0;
        w->loose[t] = NEG;
        w->nloose[t] = bad ? 0 : (int)n;
        for (Py_ssize_t k = 0; k < n && !bad; k++) {
            w->lprice[t][k] = (int16_t)v[k];
            if (v[k] > w->loose[t]) w->loose[t] = (int16_t)v[k];
        }
    }
    Py_DECREF(lf);
    if (bad) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "loose must be 3 sequences of 1 to 64 prices");
        goto fail;
    }
    if (lkinds && read_loose_kinds(w, lkinds) < 0) goto fail;
    /* Zeroed by hand, not calloc'd: calloc leaves the pages to be faulted in one by one
       inside the first searches (about 3 µs a hand over a process's first hundred). */
    if (!(w->memo = PyMem_Malloc(WCAP * sizeof(WMemo)))) {
        PyErr_NoMemory();
        goto fail;
    }
    memset(w->memo, 0, WCAP * sizeof(WMemo));
    return (PyObject *)w;
fail:
    Py_DECREF(w);
    return NULL;
}

static inline int16_t max16(int16_t a, int v) { return v > a ? (int16_t)v : a; }

/* Shape s of the lowest card (taken: r1 is the rest without it) with at most w 王: the
   王 it uses (their kinds in kinds), the rest left in *rr; −1 when it does not fit, or
   is a natural triple or four (a 坎 is set aside before the search, R22), or a 将 where
   none is allowed. The one fit of wild_solve and wild_walk (wang.py _moves). */
static int shape_fit(const WShape *s, uint64_t r1, int w, int pf, uint64_t *rr, int8_t *kinds) {
    if (s->kind == 2 && !pf) return -1;
    int used = 0;
    for (int j = 0; j < s->n; j++) {
        int m = s->other[j];
        if ((r1 >> (3 * m)) & 7) r1 -= BIT(m);
        else if (used < w) kinds[used++] = (int8_t)m;
        else return -1;
    }
    if (!used && s->kind >= 3) return -1;
    *rr = r1;
    return used;
}

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
    int cards = w + __builtin_popcountll(r & LOW) + 2 * __builtin_popcountll(r >> 1 & LOW) +
                4 * __builtin_popcountll(r >> 2 & LOW);
    /* No 王 left: 句, 绞 and a 将, as the size tables split them. The tables know one 绞 a
       point: three or more of a point in both sizes (two 绞 there; never in play, where a
       rest holds at most one point thrice) is walked. */
    uint64_t thrice = ((r & r >> 1) | r >> 2) & LOW;
    int v, read = 0;
    if (!w && r && W->sizes && !(thrice & thrice >> 30)) {
        int pair = cards == 3 * need - 1;
        if (need <= 0 || (cards != 3 * need && !(pair && pf))) read = 1; /* (no four, no 王) */
        else if ((read = rest_best(W->sizes, r, pair, &v, NULL)) == 1 && v >= 0)
            best[pair * 2] = (int16_t)v;
        else if (read < 0) PyErr_Clear(), read = 0; /* (out of memory for 绞: walked) */
    }
    if (read) { /* best as the size tables gave it */
    } else if (!r) { /* only 王 left: one group of them (wang._ALONE), of any kinds */
        if (w == 0 && need == 0) best[0] = 0;
        else if (need == 1 && (w == 3 || w == 4 || (w == 2 && pf)))
            best[(w == 2) * 2 + (w == 4)] = W->loose[w - 2];
    } else if (need > 0 && 3 * need - 1 <= cards && cards <= 4 * need) {
        int c = __builtin_ctzll(r) / 3;
        uint64_t r1 = r - BIT(c);
        for (int i = 0; i < W->nshape[c]; i++) {
            const WShape *s = &W->shape[c][i];
            uint64_t rr;
            int8_t kinds[3];
            int used = shape_fit(s, r1, w, pf, &rr, kinds);
            if (used < 0) continue;
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
    int8_t kind[8];                                      /* the kinds of the ``used`` 王 */
} WPlan;

#define ROW_PENG 0
#define ROW_WEI 1
#define ROW_CHOUWEI 2
#define ROW_PAO 3
#define ROW_TI 4

/* A hand with 王 as most_of and classes_of take it, and its readings. */
typedef struct {
    uint64_t packed;
    int key[7], nt, win, sd, nw, hw, target;
    int kan[7], nk, np;
    WPlan plan[256];
} WHand;

/* Reads the first 8 arguments (see most_of) and lists the readings of _candidates, in
   its order: -1 with an exception set on bad input. */
static int wild_hand(Wild *W, PyObject *const *args, WHand *H) {
    if (read_packed(args[0], &H->packed) < 0) return -1;
    if (!PyTuple_Check(args[1]) || PyTuple_GET_SIZE(args[1]) > 7) {
        PyErr_SetString(PyExc_TypeError, "keys must be a tuple of at most 7 table melds");
        return -1;
    }
    int nt = (int)PyTuple_GET_SIZE(args[1]), *key = H->key;
    if (nt && read_ints(args[1], key, nt, "keys") < 0) return -1;
    long win = PyLong_AsLong(args[2]), wang = PyLong_AsLong(args[4]), hw = PyLong_AsLong(args[6]);
    long target = PyLong_AsLong(args[7]);
    int sd = PyObject_IsTrue(args[3]), ww = PyObject_IsTrue(args[5]);
    if (PyErr_Occurred() || sd < 0 || ww < 0) return -1;
    int bad = win < -1 || win > 19 || wang < 0 || wang + ww > 7 || hw < 0 || hw > 3 || target < 1 ||
              target > 7;
    for (int i = 0; i < nt; i++) bad |= key[i] < 0 || key[i] >= NMELD;
    if (bad || (H->packed & FOURS)) {
        PyErr_SetString(PyExc_ValueError, "most_of: a card, 王, pattern, 门子 or meld out of range");
        return -1;
    }
    sd |= ww;
    H->nt = nt, H->win = (int)win, H->sd = sd, H->nw = (int)(wang + ww), H->hw = (int)hw;
    H->target = (int)target;
    int *kan = H->kan, nk = 0, table = 0, k4 = 0;
    uint64_t packed = H->packed, rest = packed;
    for (int c = 0; c < 20; c++)
        if (((packed >> (3 * c)) & 7) == 3) {
            kan[nk++] = c;
            rest -= 3 * BIT(c);
        }
    H->nk = nk;
    for (int i = 0; i < nt; i++) {
        table += W->flat[key[i]];
        k4 += key[i] / 20 == ROW_PAO || key[i] / 20 == ROW_TI;
    }
    int all = (1 << nk) - 1, np = 0;
    WPlan *plan = H->plan;
#define PLAN(r, h, g, u, f, p, ks, rep, c)                                                       \
    do {                                                                                         \
        plan[np] = (WPlan){(r), (h), (g), (u), (f), (p), (ks), (rep), {0}};                     \
        for (int u_ = 0; u_ < (u); u_++) plan[np].kind[u_] = (int8_t)(c);                        \
        np++;                                                                                    \
    } while (0)
    if (hw) { /* R41: the incoming card and hand_wang 王 as one fixed 将 / 坎 / 提 */
        int size = (int)hw + 1;
        for (int c = 0; c < 20; c++) {
            if (win >= 0 && c != win) continue;
            PLAN(rest, table + W->alone[hw - 1][c], nt + 1, win < 0 ? size : size - 1,
                 k4 + (hw == 3), hw == 1, all, -1, c);
        }
    } else if (win < 0) { /* a 王 drawn: one more wild, or (self-drawn) it lifts a 碰/偎 */
        PLAN(rest, table, nt, 0, k4, 0, all, -1, 0);
        for (int i = 0; i < nt; i++) {
            int row = key[i] / 20, c = key[i] % 20;
            if (row > ROW_CHOUWEI) continue;
            int up = (row == ROW_PENG ? ROW_PAO : ROW_TI) * 20 + c;
            PLAN(rest, table - W->flat[key[i]] + W->flat[up], nt, 1, k4 + 1, 0, all, i, c);
        }
    } else {
        int w = (int)win, in_kan = -1;
        PLAN(rest + BIT(w), table, nt, 0, k4, 0, all, -1, 0); /* the card joins the rest */
        if (((rest >> (3 * w)) & 7) == 2) /* pair + card → 碰 (偎 when self-drawn) */
            PLAN(rest - 2 * BIT(w), table + W->flat[(sd ? ROW_WEI : ROW_PENG) * 20 + w], nt + 1, 0,
                 k4, 0, all, -1, 0);
        for (int j = 0; j < nk; j++)
            if (kan[j] == w) in_kan = j;
        if (in_kan >= 0) /* 坎 + card → 跑 / 提 */
            PLAN(rest, table + W->flat[(sd ? ROW_TI : ROW_PAO) * 20 + w], nt + 1, 0, k4 + 1, 0,
                 all & ~(1 << in_kan), -1, 0);
        for (int i = 0; i < nt; i++) { /* table 偎/碰 + card → 跑/提 */
            int row = key[i] / 20;
            if (key[i] % 20 != w || row > ROW_CHOUWEI) continue;
            int up = (row == ROW_PENG || !sd ? ROW_PAO : ROW_TI) * 20 + w;
            PLAN(rest, table - W->flat[key[i]] + W->flat[up], nt, 0, k4 + 1, 0, all, i, 0);
            break;
        }
    }
#undef PLAN
    if (!k4) { /* R40: with no 跑/提 yet, one 王 may lift a table 偎 to a 提 */
        int base = np;
        for (int q = 0; q < base; q++)
            for (int i = 0; i < nt; i++) {
                int row = key[i] / 20, c = key[i] % 20;
                if ((row != ROW_WEI && row != ROW_CHOUWEI) || i == plan[q].replaced) continue;
                WPlan l = plan[q];
                l.huxi += W->flat[ROW_TI * 20 + c] - W->flat[key[i]];
                if (l.used < 8) l.kind[l.used] = (int8_t)c;
                l.used++, l.fours++;
                if (np < 256) plan[np++] = l;
            }
    }
    H->np = np;
    return 0;
}

/* most_of(packed, keys, win, self_drawn, wang, win_wang, hand_wang, target): wang.py
 * most_huxi of the hand (natural cards packed, table melds by Group.key, the winning
 * card or −1 for a 王 drawn, 王 in hand, R41's pattern by its hand 王 or 0, 门子 to
 * win) — the readings of _candidates, each rest searched: the most 胡息, −1 for none. */
static PyObject *wild_most_of(Wild *W, PyObject *const *args, Py_ssize_t n) {
    if (n != 8) {
        PyErr_SetString(PyExc_TypeError, "most_of takes 8 arguments");
        return NULL;
    }
    WHand H;
    if (wild_hand(W, args, &H) < 0) return NULL;
    int best = -1, all = (1 << H.nk) - 1;
    for (int q = 0; q < H.np; q++) {
        const WPlan *P = &H.plan[q];
        for (int mask = 0; mask <= all; mask++) { /* each 坎 kept, or made a 提 with a 王 */
            if (mask & ~P->kans) continue;
            int ups = __builtin_popcount((unsigned)mask), free = H.nw - P->used - ups;
            int need = H.target - P->groups - __builtin_popcount((unsigned)P->kans);
            if (free < 0 || need < 0) continue;
            int fixed = P->huxi;
            for (int j = 0; j < H.nk; j++)
                if (P->kans >> j & 1)
                    fixed += mask >> j & 1 ? W->alone[2][H.kan[j]] : W->alone[1][H.kan[j]];
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

/* classes_of: the splits of a hand by the red, big and 醒 count of what their 王 became
 * (wang.py split_classes): per class the first split (in wild_splits' order) with the
 * class's most 胡息. A depth-first walk of each reading's rest in _solve's order that
 * enters a branch only when wild_solve's memo says it completes. */
#define WCLASSES 256

typedef struct {
    int red, big, xing, huxi, ci, nk;
    uint64_t path; /* the rest's choices, 6 bits each, first the highest: a shape's index
                      in _SHAPES[c], or the loose group's in _ALONE[w] */
    int8_t kind[8];
} WClass;

typedef struct {
    Wild *W;
    int red[20], big[20], xing[20];
    int ci, pairs, fours, hf, rf, bf, xf, nkf, nkr, most, n;
    int8_t kf[8], kr[8];
    WClass cls[WCLASSES];
} WWalk;

static void wild_leaf(WWalk *X, int h, int rw, int bw, int xw, int f, int p, uint64_t path) {
    if (p + X->pairs != (X->fours + f ? 1 : 0)) return; /* R22: a 将 exactly when a four */
    h += X->hf;
    if (h > X->most) X->most = h;
    int red = X->rf + rw, big = X->bf + bw, xing = X->xf + xw;
    WClass *c = NULL;
    for (int i = 0; i < X->n; i++)
        if (X->cls[i].red == red && X->cls[i].big == big && X->cls[i].xing == xing) {
            c = &X->cls[i];
            break;
        }
    if (c && h <= c->huxi) return; /* the first with the most stays */
    if (!c) {
        if (X->n >= WCLASSES) return; /* (red ≤ 8, big ≤ 8, 醒 small: never) */
        c = &X->cls[X->n++];
    }
    c->red = red, c->big = big, c->xing = xing, c->huxi = h, c->ci = X->ci, c->path = path;
    int k = 0;
    for (int i = 0; i < X->nkf; i++) c->kind[k++] = X->kf[i];
    for (int i = 0; i < X->nkr && k < 8; i++) c->kind[k++] = X->kr[i];
    for (int i = 1; i < k; i++) /* sorted, as Settlement.wang */
        for (int j = i; j > 0 && c->kind[j - 1] > c->kind[j]; j--) {
            int8_t t = c->kind[j];
            c->kind[j] = c->kind[j - 1], c->kind[j - 1] = t;
        }
    c->nk = k;
}

static void wild_walk(WWalk *X, uint64_t r, int w, int pf, int need, int h, int rw, int bw, int xw,
                      int f, int p, uint64_t path) {
    Wild *W = X->W;
    if (!r) { /* only 王 left: one group of them, of any kinds (wang._ALONE) */
        if (w == 0 && need == 0) wild_leaf(X, h, rw, bw, xw, f, p, path);
        else if (need == 1 && (w == 3 || w == 4 || (w == 2 && pf)))
            for (int g = 0; g < W->nl[w - 2]; g++) {
                const int8_t *k = W->lkind[w - 2][g];
                int dr = 0, db = 0, dx = 0;
                for (int j = 0; j < w; j++) {
                    dr += X->red[k[j]], db += X->big[k[j]], dx += X->xing[k[j]];
                    X->kr[X->nkr + j] = k[j];
                }
                X->nkr += w;
                wild_leaf(X, h + W->lprice[w - 2][g], rw + dr, bw + db, xw + dx, f | (w == 4),
                          p | (w == 2), path << 6 | (uint64_t)g);
                X->nkr -= w;
            }
        return;
    }
    int cards = w;
    for (uint64_t x = r; x; x >>= 3) cards += (int)(x & 7);
    if (need <= 0 || 3 * need - 1 > cards || cards > 4 * need) return;
    int c = __builtin_ctzll(r) / 3;
    uint64_t r1 = r - BIT(c);
    for (int i = 0; i < W->nshape[c]; i++) {
        const WShape *s = &W->shape[c][i];
        uint64_t rr;
        int used = shape_fit(s, r1, w, pf, &rr, X->kr + X->nkr), dr = 0, db = 0, dx = 0;
        if (used < 0) continue;
        for (int j = 0; j < used; j++) {
            int m = X->kr[X->nkr + j];
            dr += X->red[m], db += X->big[m], dx += X->xing[m];
        }
        int pair = s->kind == 2, four = s->kind == 4;
        int16_t sub[4];
        wild_solve(W, rr, w - used, pf && !pair, need - 1, sub); /* does it complete at all? */
        if (sub[0] <= NEG / 2 && sub[1] <= NEG / 2 && sub[2] <= NEG / 2 && sub[3] <= NEG / 2)
            continue;
        X->nkr += used;
        wild_walk(X, rr, w - used, pf && !pair, need - 1, h + s->huxi, rw + dr, bw + db, xw + dx,
                  f | four, p | pair, path << 6 | (uint64_t)i);
        X->nkr -= used;
    }
}

/* classes_of(packed, keys, win, self_drawn, wang, win_wang, hand_wang, target, xing, axes):
 * most_of's hand, the 醒 a 王 standing for each kind adds (packed 3 bits a kind) and the
 * colour counts a class tells apart (axes: bit 0 red, bit 1 big; a count not told is 0,
 * mingtang.Compiled.axes) ->
 * (the most 胡息 of any split or −1, ((red, big, 醒, 胡息, reading, path, 王 kinds), …)):
 * the reading's index in _candidates' order, the path as WClass says. */
static PyObject *wild_classes_of(Wild *W, PyObject *const *args, Py_ssize_t n) {
    if (n != 10) {
        PyErr_SetString(PyExc_TypeError, "classes_of takes 10 arguments");
        return NULL;
    }
    if (!W->nl[0] || !W->nl[1] || !W->nl[2]) {
        PyErr_SetString(PyExc_ValueError, "classes_of needs the loose groups' kinds (loose_kinds)");
        return NULL;
    }
    WHand H;
    uint64_t xp;
    if (wild_hand(W, args, &H) < 0 || read_packed(args[8], &xp) < 0) return NULL;
    long axes = PyLong_AsLong(args[9]);
    if (axes == -1 && PyErr_Occurred()) return NULL;
    if (axes < 0 || axes > 3) {
        PyErr_SetString(PyExc_ValueError, "axes must be 0 to 3");
        return NULL;
    }
    WWalk *X = PyMem_Malloc(sizeof(WWalk));
    if (!X) return PyErr_NoMemory();
    X->W = W, X->most = -1, X->n = 0, X->ci = -1;
    for (int c = 0; c < 20; c++) {
        X->red[c] = (axes & 1) && (c % 10 == 1 || c % 10 == 6 || c % 10 == 9); /* 二七十 */
        X->big[c] = (axes & 2) && c >= 10;
        X->xing[c] = (int)(xp >> (3 * c) & 7);
    }
    int all = (1 << H.nk) - 1;
    for (int q = 0; q < H.np; q++) {
        const WPlan *P = &H.plan[q];
        for (int mask = 0; mask <= all; mask++) {
            if (mask & ~P->kans) continue;
            int ups = __builtin_popcount((unsigned)mask), free = H.nw - P->used - ups;
            if (free < 0) continue; /* (_candidates yields no such reading) */
            X->ci++;
            int need = H.target - P->groups - __builtin_popcount((unsigned)P->kans);
            if (need < 0) continue;
            int fixed = P->huxi;
            X->nkf = 0;
            for (int u = 0; u < P->used && u < 8; u++) X->kf[X->nkf++] = P->kind[u];
            for (int j = 0; j < H.nk; j++)
                if (P->kans >> j & 1) {
                    int up = mask >> j & 1;
                    fixed += up ? W->alone[2][H.kan[j]] : W->alone[1][H.kan[j]];
                    if (up && X->nkf < 8) X->kf[X->nkf++] = (int8_t)H.kan[j];
                }
            X->hf = fixed, X->pairs = P->pairs, X->fours = P->fours + ups, X->nkr = 0;
            X->rf = X->bf = X->xf = 0;
            for (int i = 0; i < X->nkf; i++)
                X->rf += X->red[X->kf[i]], X->bf += X->big[X->kf[i]], X->xf += X->xing[X->kf[i]];
            int16_t sub[4];
            wild_solve(W, P->rest, free, !P->pairs, need, sub);
            int any = 0;
            for (int i = 0; i < 4; i++)
                any |= sub[i] > NEG / 2 && (i >> 1) + P->pairs == (X->fours + (i & 1) ? 1 : 0);
            if (any) wild_walk(X, P->rest, free, !P->pairs, need, 0, 0, 0, 0, 0, 0, 0);
        }
    }
    PyObject *list = PyTuple_New(X->n), *out = NULL;
    if (!list) goto done;
    for (int i = 0; i < X->n; i++) {
        const WClass *c = &X->cls[i];
        PyObject *kinds = PyTuple_New(c->nk);
        if (!kinds) goto done;
        for (int j = 0; j < c->nk; j++) {
            PyObject *v = PyLong_FromLong(c->kind[j]);
            if (!v) {
                Py_DECREF(kinds);
                goto done;
            }
            PyTuple_SET_ITEM(kinds, j, v);
        }
        PyObject *t = Py_BuildValue("(iiiiiKN)", c->red, c->big, c->xing, c->huxi, c->ci,
                                    (unsigned long long)c->path, kinds);
        if (!t) goto done;
        PyTuple_SET_ITEM(list, i, t);
    }
    out = Py_BuildValue("(iO)", X->most, list);
done:
    Py_XDECREF(list);
    PyMem_Free(X);
    return out;
}

/* most_in(position): most_of of a Position, its fields read where the evaluator reads
 * them (its dict, else getattr): the engine's and the settlement's win check with 王 (R40,
 * R41) makes no Python frame and no tuple of keys. None for a hand most_of does not take
 * (four alike in hand: wang.py's Python answers). */
static PyObject *wild_most_in(Wild *W, PyObject *pos) {
    PyObject *names[8] = {S_packed, S_table_keys, S_win, S_self_drawn,
                          F_wang,   F_win_wang,   F_pattern, F_hand_size};
    PyObject *f[8] = {NULL}, *made[3] = {NULL}, *out = NULL, *args[8];
    PyObject *dd = PyObject_GenericGetDict(pos, NULL);
    if (!dd) PyErr_Clear(); /* (no instance dict: getattr reads, and says what is wrong) */
    for (int i = 0; i < 8; i++)
        if (!(f[i] = field(dd, pos, names[i]))) goto done;
    uint64_t packed;
    if (read_packed(f[0], &packed) < 0) goto done;
    if (packed & FOURS) {
        out = Py_NewRef(Py_None);
        goto done;
    }
    long hs = PyLong_AsLong(f[7]);
    if (hs == -1 && PyErr_Occurred()) goto done;
    if (hs < 2 || hs > 21) {
        PyErr_Format(PyExc_ValueError, "hand_size %ld out of range", hs);
        goto done;
    }
    args[0] = f[0], args[1] = f[1], args[3] = f[3], args[4] = f[4], args[5] = f[5];
    args[2] = f[2] != Py_None ? f[2] : (made[0] = PyLong_FromLong(-1));
    args[6] = f[6] == Py_None ? ZERO : (made[1] = PyObject_GetAttrString(f[6], "hand_wang"));
    args[7] = made[2] = PyLong_FromLong((hs + 1) / 3); /* 门子 of a win (R22, R43) */
    if (args[2] && args[6] && args[7]) out = wild_most_of(W, args, 8);
done:
    for (int i = 0; i < 8; i++) Py_XDECREF(f[i]);
    for (int i = 0; i < 3; i++) Py_XDECREF(made[i]);
    Py_XDECREF(dd);
    return out;
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
    {"most_in", (PyCFunction)wild_most_in, METH_O,
     "most_in(position) -> most_of of a Position's fields, None with four alike in hand"},
    {"classes_of", (PyCFunction)(void (*)(void))wild_classes_of, METH_FASTCALL,
     "classes_of(packed, keys, win, self_drawn, wang, win_wang, hand_wang, target, xing, axes) -> "
     "(most 胡息, ((red, big, 醒, 胡息, reading, path, 王 kinds), …))"},
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

/* ---- settle's front door (core/scoring.py settle) ----
 * Front(slow)(position, rules=HUNAN, huang=0): a call with the rules of the call
 * before (self-play, a batch, a search score one preset) goes straight to that rules'
 * Settler; anything else — other rules, keywords, a hand the Settler hands back — to
 * ``slow``, the Python settle, which tells the front the rules it last used
 * (``remember``). Carries functools.update_wrapper's attributes in its __dict__, so
 * that it reads as the Python function (signature, doc, name). */
typedef struct {
    PyObject_HEAD
    PyObject *dict;   /* __wrapped__, __doc__, __name__ … */
    PyObject *slow;   /* the Python settle */
    PyObject *rules;  /* the rules the front settles straight (NULL: none yet) */
    PyObject *native; /* their Settler.settle */
    PyObject *after;  /* (position, huang): their Python path, for a hand native hands back */
    PyObject *fallback_rules; /* settle's default rules (a call with the position alone) */
    vectorcallfunc vectorcall;
} Front;


static PyObject *front_vectorcall(Front *f, PyObject *const *args, size_t nargsf, PyObject *kw) {
    Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    if (!kw && n >= 1 && n <= 3 && f->native) {
        PyObject *rules = n >= 2 ? args[1] : f->fallback_rules;
        if (rules == f->rules) {
            /* held for the call: another thread may remember other rules meanwhile */
            PyObject *native = Py_NewRef(f->native), *after = Py_NewRef(f->after);
            PyObject *a[2] = {args[0], n == 3 ? args[2] : ZERO};
            PyObject *r = PyObject_Vectorcall(native, a, 2, NULL);
            if (r == Py_None) { /* handed back: that rules' Python path */
                Py_DECREF(r);
                r = PyObject_Vectorcall(after, a, 2, NULL);
            }
            Py_DECREF(native);
            Py_DECREF(after);
            return r; /* a settlement, or NULL: the error */
        }
    }
    return PyObject_Vectorcall(f->slow, args, nargsf, kw);
}

static PyObject *front_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    static char *kw[] = {"slow", "default", NULL};
    PyObject *slow, *dflt;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO:Front", kw, &slow, &dflt)) return NULL;
    if (!PyCallable_Check(slow)) {
        PyErr_SetString(PyExc_TypeError, "Front(slow, default): slow must be callable");
        return NULL;
    }
    Front *f = (Front *)type->tp_alloc(type, 0);
    if (!f) return NULL;
    f->slow = Py_NewRef(slow);
    f->fallback_rules = Py_NewRef(dflt);
    f->vectorcall = (vectorcallfunc)front_vectorcall;
    return (PyObject *)f;
}

static int front_traverse(Front *f, visitproc visit, void *arg) {
    Py_VISIT(f->dict);
    Py_VISIT(f->slow);
    Py_VISIT(f->rules);
    Py_VISIT(f->native);
    Py_VISIT(f->after);
    Py_VISIT(f->fallback_rules);
    return 0;
}

static int front_clear(Front *f) {
    Py_CLEAR(f->dict);
    Py_CLEAR(f->slow);
    Py_CLEAR(f->rules);
    Py_CLEAR(f->native);
    Py_CLEAR(f->after);
    Py_CLEAR(f->fallback_rules);
    return 0;
}

static void front_dealloc(Front *f) {
    PyObject_GC_UnTrack(f);
    front_clear(f);
    Py_TYPE(f)->tp_free((PyObject *)f);
}

/* remember(rules, native, after): settle calls with ``rules`` go to ``native``, and a
   hand it hands back (None) to ``after``; native None: every call to slow. */
static PyObject *front_remember(Front *f, PyObject *const *args, Py_ssize_t n) {
    if (n != 3) {
        PyErr_SetString(PyExc_TypeError, "remember(rules, native, after) takes 3 arguments");
        return NULL;
    }
    int off = args[1] == Py_None;
    if (!off && (!PyCallable_Check(args[1]) || !PyCallable_Check(args[2]))) {
        PyErr_SetString(PyExc_TypeError, "remember: native and after must be callable");
        return NULL;
    }
    PyObject *old[3] = {f->rules, f->native, f->after};
    f->rules = Py_NewRef(args[0]);
    f->native = off ? NULL : Py_NewRef(args[1]);
    f->after = off ? NULL : Py_NewRef(args[2]);
    for (int i = 0; i < 3; i++) Py_XDECREF(old[i]);
    Py_RETURN_NONE;
}

/* Pickled by name, as the function it stands for (its __module__ and __name__). */
static PyObject *front_reduce(Front *f, PyObject *unused) {
    (void)unused;
    return PyObject_GetAttrString((PyObject *)f, "__name__");
}

static PyObject *front_get(PyObject *f, PyObject *obj, PyObject *type) {
    (void)obj, (void)type;
    return Py_NewRef(f); /* a class attribute stays a plain function, not a method */
}

static PyMethodDef front_methods[] = {
    {"remember", (PyCFunction)(void (*)(void))front_remember, METH_FASTCALL,
     "remember(rules, native, after): settle ``rules`` through ``native``, then ``after``"},
    {"__reduce__", (PyCFunction)front_reduce, METH_NOARGS, "pickled by name"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef front_getset[] = {
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject FrontType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "paohuzi.core._kernel.Front",
    .tp_basicsize = sizeof(Front),
    .tp_dealloc = (destructor)front_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "settle's front door: the rules of the call before straight to their Settler.",
    .tp_traverse = (traverseproc)front_traverse,
    .tp_clear = (inquiry)front_clear,
    .tp_methods = front_methods,
    .tp_getset = front_getset,
    .tp_dictoffset = offsetof(Front, dict),
    .tp_vectorcall_offset = offsetof(Front, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_descr_get = front_get,
    .tp_new = front_new,
};

/* ------------------------------------------------------------------ the encoder */
/* 观察 (guānchá): encoding/observation.py's ``_encode`` in C — one seat's View as the
 * float32 vector (issue 27: a learner reads one per seat asked, and the Python
 * one, even compiled, paid a boxed store per entry). It reads only the View, as the
 * Python one does, so it can show nothing the seat may not see; the layout (every
 * offset, the phases, rules, sources and meld kinds) is handed in by
 * encoding/observation.py, which keeps the one definition. Invalid input (a card
 * outside 0..19, a meld kind or phase it does not know) raises; nothing is kept
 * between calls. */

enum { V_SEAT, V_RULES, V_SEATS, V_DEALER, V_PHASE, V_CURRENT, V_TO_ACT, V_OTHERS, V_HAND,
       V_SIZES, V_TABLES, V_PILES, V_WALL, V_LZ, V_BOTTOM, V_OPEN, V_CHOU, V_DISCARDS,
       V_HUXI, V_NEED, NV };
enum { O_DECIDING, O_WALL, O_HAND, O_CHOU, O_HUXI, O_NEED, O_LZ, O_BOTTOM,
       O_OPEN_CARD, O_OPEN_HIDDEN, O_OPEN_SHOWN, O_OPEN_OWNER, O_SEAT0, O_SEAT_SIZE,
       O_SEATED, O_DEALER, O_TURN, O_SIZE, O_WEI_HIDDEN, O_PILE, O_DISCARDED, NO };
#define NCHI (20 * 20 * 20)

typedef struct {
    PyObject_HEAD
    Py_ssize_t size;         /* floats in a vector */
    Py_ssize_t view[NV];     /* where each field read sits in the View */
    Py_ssize_t at[NO];       /* the offsets (seat blocks: from the block's start) */
    PyObject *phases, *rules, *sources, *kinds; /* tuples, matched by identity or equality */
    Py_ssize_t phase_at[8], rule_at[8], source_at[8], kind_at[8];
    Py_ssize_t discard;      /* the index of the discard phase in ``phases`` */
    Py_ssize_t fields;       /* the View's length at least: past every field read */
    PyObject *chi;           /* the 吃 meld kind */
    int16_t chi_at[NCHI];    /* a 吃's sorted cards (x·20 + y)·20 + z → its entry, −1 none */
    vectorcallfunc vectorcall;
} Encoder;

static PyObject *encoder_call(Encoder *e, PyObject *const *args, size_t nargsf, PyObject *kw);
static PyObject *S_name, *S_kind, *S_cards, *S_card, *S_owner, *S_source, *S_shown;

static void encoder_dealloc(Encoder *e) {
    Py_XDECREF(e->phases);
    Py_XDECREF(e->rules);
    Py_XDECREF(e->sources);
    Py_XDECREF(e->kinds);
    Py_XDECREF(e->chi);
    Py_TYPE(e)->tp_free((PyObject *)e);
}

/* ``n`` non-negative ints of the sequence ``seq`` (exactly ``n``; ``max``: each below). */
static int ints_of(PyObject *seq, Py_ssize_t *out, Py_ssize_t n, Py_ssize_t max, const char *what) {
    PyObject *f = PySequence_Fast(seq, what);
    if (!f) return -1;
    int bad = PySequence_Fast_GET_SIZE(f) != n;
    for (Py_ssize_t i = 0; !bad && i < n; i++) {
        out[i] = PyLong_AsSsize_t(PySequence_Fast_GET_ITEM(f, i));
        if (out[i] < 0 || out[i] >= max) bad = 1;
    }
    Py_DECREF(f);
    if (bad && !PyErr_Occurred())
        PyErr_Format(PyExc_ValueError, "Encoder: %s must be %zd ints in 0..%zd", what, n, max - 1);
    return bad ? -1 : 0;
}

static PyObject *encoder_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    static char *kw[] = {"size", "view", "at", "phases", "phase_at", "discard", "rules",
                         "rule_at", "sources", "source_at", "chi", "kinds", "kind_at",
                         "chi_at", NULL};
    Py_ssize_t size, discard;
    PyObject *view, *at, *phases, *phase_at, *rules, *rule_at, *sources, *source_at, *chi;
    PyObject *kinds, *kind_at, *chi_at;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "nOOO!OnO!OO!OOO!OO!:Encoder", kw, &size, &view,
                                     &at, &PyTuple_Type, &phases, &phase_at, &discard,
                                     &PyTuple_Type, &rules, &rule_at, &PyTuple_Type, &sources,
                                     &source_at, &chi, &PyTuple_Type, &kinds, &kind_at,
                                     &PyDict_Type, &chi_at))
        return NULL;
    if (size <= 0 || size > 1 << 20) {
        PyErr_SetString(PyExc_ValueError, "Encoder: size out of range");
        return NULL;
    }
    PyObject *names[4] = {phases, rules, sources, kinds};
    for (int i = 0; i < 4; i++)
        if (PyTuple_GET_SIZE(names[i]) < 1 || PyTuple_GET_SIZE(names[i]) > 7) {
            PyErr_SetString(PyExc_ValueError, "Encoder: phases, rules, sources, kinds: 1–7 each");
            return NULL;
        }
    if (discard < 0 || discard >= PyTuple_GET_SIZE(phases)) {
        PyErr_SetString(PyExc_ValueError, "Encoder: discard must index phases");
        return NULL;
    }
    Encoder *e = (Encoder *)type->tp_alloc(type, 0);
    if (!e) return NULL;
    e->size = size, e->discard = discard;
    e->vectorcall = (vectorcallfunc)encoder_call;
    /* every offset with the widest write past it (20 kinds) inside the vector; a seat
       block's own offsets inside the block */
    if (ints_of(view, e->view, NV, 64, "view") < 0 || ints_of(at, e->at, NO, size, "at") < 0 ||
        ints_of(phase_at, e->phase_at, PyTuple_GET_SIZE(phases), size, "phase_at") < 0 ||
        ints_of(rule_at, e->rule_at, PyTuple_GET_SIZE(rules) + 1, size, "rule_at") < 0 ||
        ints_of(source_at, e->source_at, PyTuple_GET_SIZE(sources), size, "source_at") < 0 ||
        ints_of(kind_at, e->kind_at, PyTuple_GET_SIZE(kinds), size, "kind_at") < 0)
        goto fail;
    for (int i = 0; i < NV; i++) e->fields = e->view[i] >= e->fields ? e->view[i] + 1 : e->fields;
    Py_ssize_t seat_end = e->at[O_SEAT0] + 4 * e->at[O_SEAT_SIZE];
    int bad = seat_end > size || e->at[O_SEAT_SIZE] <= 0 || e->at[O_OPEN_OWNER] + 4 > size;
    static const int kinds20[] = {O_HAND, O_CHOU, O_LZ, O_BOTTOM, O_OPEN_CARD};
    for (int i = 0; i < 5; i++) bad |= e->at[kinds20[i]] + 20 > size;
    static const int in_seat[] = {O_SEATED, O_DEALER, O_TURN, O_SIZE, O_WEI_HIDDEN};
    for (int i = 0; i < 5; i++) bad |= e->at[in_seat[i]] >= e->at[O_SEAT_SIZE];
    bad |= e->at[O_PILE] + 20 > e->at[O_SEAT_SIZE] || e->at[O_DISCARDED] + 20 > e->at[O_SEAT_SIZE];
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(kinds); i++)
        bad |= e->kind_at[i] + 20 > e->at[O_SEAT_SIZE];
    bad |= e->at[O_DECIDING] + 2 > size;
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "Encoder: a block runs past the vector or its seat");
        goto fail;
    }
    memset(e->chi_at, 0xff, sizeof e->chi_at);
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(chi_at, &pos, &k, &v)) {
        Py_ssize_t key = PyLong_AsSsize_t(k), off = PyLong_AsSsize_t(v);
        if (key < 0 || key >= NCHI || off < 0 || off >= e->at[O_SEAT_SIZE]) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "Encoder: chi_at out of range");
            goto fail;
        }
        e->chi_at[key] = (int16_t)off;
    }
    e->phases = Py_NewRef(phases), e->rules = Py_NewRef(rules), e->sources = Py_NewRef(sources);
    e->kinds = Py_NewRef(kinds), e->chi = Py_NewRef(chi);
    return (PyObject *)e;
fail:
    Py_DECREF(e);
    return NULL;
}

/* The place of ``o`` in ``names`` (by identity, then equality), −1 if absent, −2 on error. */
static Py_ssize_t index_in(PyObject *names, PyObject *o) {
    Py_ssize_t n = PyTuple_GET_SIZE(names);
    for (Py_ssize_t i = 0; i < n; i++)
        if (PyTuple_GET_ITEM(names, i) == o) return i;
    for (Py_ssize_t i = 0; i < n; i++) {
        int eq = PyObject_RichCompareBool(PyTuple_GET_ITEM(names, i), o, Py_EQ);
        if (eq) return eq < 0 ? -2 : i;
    }
    return -1;
}

static int long_of(PyObject *o, long *out, const char *what) {
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "encode: %s must be an int", what);
        return -1;
    }
    *out = PyLong_AsLong(o);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

/* A card kind 0..19 (20, a 王, where ``wang`` allows it: −1 then, nothing to set). */
static int kind_of(PyObject *o, long *out, int wang) {
    if (long_of(o, out, "a card") < 0) return -1;
    if (*out == 20 && wang) *out = -1;
    else if (*out < 0 || *out > 19) {
        PyErr_Format(PyExc_ValueError, "encode: a card kind must be 0..19, got %ld", *out);
        return -1;
    }
    return 0;
}

static int tuple_of(PyObject *o, const char *what) {
    if (PyTuple_Check(o)) return 0;
    PyErr_Format(PyExc_TypeError, "encode: %s must be a tuple", what);
    return -1;
}

/* o[at + c] for each card c of the tuple ``cards``: += step, or = 1 (step 0). */
static int cards_into(float *o, Py_ssize_t at, PyObject *cards, double step, const char *what) {
    if (tuple_of(cards, what) < 0) return -1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(cards); i++) {
        long c;
        if (kind_of(PyTuple_GET_ITEM(cards, i), &c, 0) < 0) return -1;
        o[at + c] = step ? (float)((double)o[at + c] + step) : 1.0f;
    }
    return 0;
}

static inline float capped(long v, long cap) { return (float)((double)(v < cap ? v : cap) / cap); }

/* One seat's block at s0: seated, dealer, turn, hand size, melds as the viewer sees
   them, pile and discarded kinds (observation._slot). */
static int encode_slot(Encoder *e, float *o, Py_ssize_t s0, PyObject *melds, PyObject *pile,
                       PyObject *discarded, long size, int seated, int dealer, int turn) {
    const Py_ssize_t *at = e->at;
    if (seated) o[s0 + at[O_SEATED]] = 1.0f;
    if (dealer) o[s0 + at[O_DEALER]] = 1.0f;
    if (turn) o[s0 + at[O_TURN]] = 1.0f;
    o[s0 + at[O_SIZE]] = capped(size, 24);
    if (tuple_of(melds, "a seat's melds") < 0) return -1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(melds); i++) {
        PyObject *m = PyTuple_GET_ITEM(melds, i);
        PyObject *kind = PyObject_GetAttr(m, S_kind), *cards = kind ? PyObject_GetAttr(m, S_cards) : NULL;
        int r = !cards || tuple_of(cards, "a meld's cards") < 0 || PyTuple_GET_SIZE(cards) < 1 ? -1 : 0;
        if (r == 0 && !PyErr_Occurred() && kind == e->chi) { /* 吃 melds always show */
            long c[3];
            if (PyTuple_GET_SIZE(cards) != 3) r = -1;
            for (int j = 0; r == 0 && j < 3; j++) r = kind_of(PyTuple_GET_ITEM(cards, j), &c[j], 0);
            if (r == 0) {
                for (int a = 0; a < 2; a++) /* sorted */
                    for (int b = 0; b < 2 - a; b++)
                        if (c[b] > c[b + 1]) { long t = c[b]; c[b] = c[b + 1], c[b + 1] = t; }
                int16_t off = e->chi_at[(c[0] * 20 + c[1]) * 20 + c[2]];
                if (off < 0) {
                    PyErr_SetString(PyExc_KeyError, "encode: a 吃 of no known group");
                    r = -1;
                } else o[s0 + off] = (float)((double)o[s0 + off] + 0.25);
            }
        } else if (r == 0 && PyTuple_GET_ITEM(cards, 0) == Py_None) { /* a face-down 偎 */
            float *w = &o[s0 + at[O_WEI_HIDDEN]];
            *w = (float)((double)*w + 1.0 / 7.0);
        } else if (r == 0) { /* one meld per kind and seat: a mask entry */
            Py_ssize_t k = index_in(e->kinds, kind);
            long c;
            if (k < 0) {
                if (k == -1) PyErr_SetString(PyExc_KeyError, "encode: a meld kind it does not know");
                r = -1;
            } else if ((r = kind_of(PyTuple_GET_ITEM(cards, 0), &c, 0)) == 0)
                o[s0 + e->kind_at[k] + c] = 1.0f;
        }
        if (r < 0 && !PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "encode: a meld must have a kind and cards");
        Py_XDECREF(kind);
        Py_XDECREF(cards);
        if (r < 0) return -1;
    }
    if (cards_into(o, s0 + at[O_PILE], pile, 0.25, "a pile") < 0) return -1;
    return cards_into(o, s0 + at[O_DISCARDED], discarded, 0, "a seat's discarded kinds");
}

static int encode_open(Encoder *e, float *o, PyObject *op, long me, long n) {
    const Py_ssize_t *at = e->at;
    PyObject *card = PyObject_GetAttr(op, S_card), *owner = NULL, *source = NULL, *shown = NULL;
    int r = -1;
    long c, w;
    if (!card || !(owner = PyObject_GetAttr(op, S_owner)) ||
        !(source = PyObject_GetAttr(op, S_source)) || !(shown = PyObject_GetAttr(op, S_shown)))
        goto done;
    if (card == Py_None) o[at[O_OPEN_HIDDEN]] = 1.0f;
    else if (kind_of(card, &c, 1) < 0) goto done;
    else if (c >= 0) o[at[O_OPEN_CARD] + c] = 1.0f; /* a drawn 王: shown, no kind */
    int s = PyObject_IsTrue(shown);
    if (s < 0) goto done;
    if (s) o[at[O_OPEN_SHOWN]] = 1.0f;
    Py_ssize_t i = index_in(e->sources, source);
    if (i < 0) {
        if (i == -1) PyErr_SetString(PyExc_KeyError, "encode: a card source it does not know");
        goto done;
    }
    o[e->source_at[i]] = 1.0f;
    if (long_of(owner, &w, "the open card's owner") < 0) goto done;
    o[at[O_OPEN_OWNER] + (((w - me) % n) + n) % n] = 1.0f;
    r = 0;
done:
    Py_XDECREF(card);
    Py_XDECREF(owner);
    Py_XDECREF(source);
    Py_XDECREF(shown);
    return r;
}

/* encode(view) → a bytearray of the float32 vector (observation._encode, made afresh). */
static PyObject *encoder_call(Encoder *e, PyObject *const *args, size_t nargsf, PyObject *kw) {
    if (kw || PyVectorcall_NARGS(nargsf) != 1) {
        PyErr_SetString(PyExc_TypeError, "encode(view) takes 1 argument");
        return NULL;
    }
    PyObject *v = args[0];
    if (!PyTuple_Check(v) || PyTuple_GET_SIZE(v) < e->fields) {
        PyErr_SetString(PyExc_TypeError, "encode: a View is needed");
        return NULL;
    }
#define GET(f) PyTuple_GET_ITEM(v, e->view[f])
    const Py_ssize_t *at = e->at;
    PyObject *sizes = GET(V_SIZES), *seats = GET(V_SEATS), *tables = GET(V_TABLES);
    PyObject *piles = GET(V_PILES), *discards = GET(V_DISCARDS);
    if (tuple_of(sizes, "hand_sizes") < 0 || tuple_of(seats, "seats") < 0 ||
        tuple_of(tables, "tables") < 0 || tuple_of(piles, "piles") < 0 ||
        tuple_of(discards, "discards") < 0)
        return NULL;
    long n = (long)PyTuple_GET_SIZE(sizes), me, x;
    if (n < 1 || n > 4 || PyTuple_GET_SIZE(tables) < n || PyTuple_GET_SIZE(piles) < n ||
        PyTuple_GET_SIZE(discards) < n) {
        PyErr_SetString(PyExc_ValueError, "encode: 1–4 seats, a table, pile and discards each");
        return NULL;
    }
    if (long_of(GET(V_SEAT), &me, "seat") < 0) return NULL;
    PyObject *ba = PyByteArray_FromStringAndSize(NULL, e->size * (Py_ssize_t)sizeof(float));
    if (!ba) return NULL;
    float *o = (float *)PyByteArray_AS_STRING(ba);
    memset(o, 0, (size_t)e->size * sizeof(float));
    Py_ssize_t ph = index_in(e->phases, GET(V_PHASE));
    if (ph < 0) {
        if (ph == -1) PyErr_SetString(PyExc_KeyError, "encode: a phase it does not know");
        goto fail;
    }
    o[e->phase_at[ph]] = 1.0f;
    int t1 = PyObject_IsTrue(GET(V_TO_ACT)), t2 = t1 < 0 ? -1 : PyObject_IsTrue(GET(V_OTHERS));
    if (t2 < 0) goto fail;
    if (t1) o[at[O_DECIDING]] = 1.0f;
    if (t2) o[at[O_DECIDING] + 1] = 1.0f;
    PyObject *name = PyObject_GetAttr(GET(V_RULES), S_name);
    if (!name) goto fail;
    Py_ssize_t ri = index_in(e->rules, name);
    Py_DECREF(name);
    if (ri == -2) goto fail;
    o[e->rule_at[ri >= 0 ? ri : PyTuple_GET_SIZE(e->rules)]] = 1.0f; /* else: other */
    if (long_of(GET(V_WALL), &x, "wall") < 0) goto fail;
    o[at[O_WALL]] = capped(x, 80);
    if (cards_into(o, at[O_HAND], GET(V_HAND), 0.25, "hand") < 0) goto fail;
    if (cards_into(o, at[O_CHOU], GET(V_CHOU), 0, "chou") < 0) goto fail;
    if (long_of(GET(V_HUXI), &x, "huxi") < 0) goto fail;
    o[at[O_HUXI]] = capped(x, 100);
    if (long_of(GET(V_NEED), &x, "need") < 0) goto fail;
    o[at[O_NEED]] = capped(x, 40);
    PyObject *shown[2] = {GET(V_LZ), GET(V_BOTTOM)}; /* a 王 shown (R39): no kind bit */
    for (int i = 0; i < 2; i++)
        if (shown[i] != Py_None) {
            if (kind_of(shown[i], &x, 1) < 0) goto fail;
            if (x >= 0) o[at[i ? O_BOTTOM : O_LZ] + x] = 1.0f;
        }
    if (GET(V_OPEN) != Py_None && encode_open(e, o, GET(V_OPEN), me, n) < 0) goto fail;
    long dealer, current = -1;
    if (long_of(GET(V_DEALER), &dealer, "dealer") < 0) goto fail;
    if (ph == e->discard && GET(V_CURRENT) != Py_None &&
        long_of(GET(V_CURRENT), &current, "current_player") < 0)
        goto fail;
    for (long t = 0; t < n; t++) {
        Py_ssize_t s0 = at[O_SEAT0] + ((((t - me) % n) + n) % n) * at[O_SEAT_SIZE];
        int seated = 0;
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(seats); i++) {
            if (long_of(PyTuple_GET_ITEM(seats, i), &x, "a seat") < 0) goto fail;
            seated |= x == t;
        }
        if (long_of(PyTuple_GET_ITEM(sizes, t), &x, "a hand size") < 0) goto fail;
        if (encode_slot(e, o, s0, PyTuple_GET_ITEM(tables, t), PyTuple_GET_ITEM(piles, t),
                        PyTuple_GET_ITEM(discards, t), x, seated, t == dealer, t == current) < 0)
            goto fail;
    }
#undef GET
    return ba;
fail:
    Py_DECREF(ba);
    return NULL;
}

static PyTypeObject EncoderType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "paohuzi.core._kernel.Encoder",
    .tp_basicsize = sizeof(Encoder),
    .tp_dealloc = (destructor)encoder_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_vectorcall_offset = offsetof(Encoder, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_doc = "Encoder(...)(view): encoding/observation.py's vector of a View in C "
              "(a bytearray of float32).",
    .tp_new = encoder_new,
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
        !(S_shape = PyUnicode_InternFromString("shape")) ||
        !(S_tinghu = PyUnicode_InternFromString("tinghu")) ||
        !(S_di = PyUnicode_InternFromString("di")) ||
        !(S_huxi = PyUnicode_InternFromString("huxi")))
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
    if (!(EMPTY = PyTuple_New(0)) || !(ZERO = PyLong_FromLong(0))) return NULL;
    if (!(TWENTY = PyLong_FromLong(20)) || !(S_from_dict = PyUnicode_InternFromString("_from_dict")) ||
        !(S_hand_size_kw = PyUnicode_InternFromString("hand_size")))
        return NULL;
    PyObject **attrs[] = {&S_name, &S_kind, &S_cards, &S_card, &S_owner, &S_source, &S_shown};
    static const char *attr[] = {"name", "kind", "cards", "card", "owner", "source", "shown"};
    for (int i = 0; i < 7; i++)
        if (!(*attrs[i] = PyUnicode_InternFromString(attr[i]))) return NULL;
    PyObject *m = PyModule_Create(&kernel_module);
    if (!m) return NULL;
    PyTypeObject *types[] = {&KernelType, &ReaderType, &SettlerType, &WildType, &FrontType,
                             &EncoderType};
    for (int i = 0; i < 6; i++) {
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

