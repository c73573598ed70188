// Maximum weight matching in a general graph (Edmonds' blossom algorithm, the dense
// O(n^3) primal-dual form) on exact integers of up to 64 x 64 bits.
//
// Why it exists: the FIDE Dutch pairer (league/formats/dutch.py) folds its criteria
// into edge weights several hundred bits wide and solves about 20 matchings of 200-400
// players for a 1,000-player round; networkx's pure-Python matcher took 39 of the 48 s
// of CPU that round took. No maintained library solves the problem on integers this
// wide (rustworkx stops at 128 bits), so this is one file with one entry point, and
// the tests check it against networkx on random graphs.
//
// Weights are K 64-bit limbs, least significant first, and every value the algorithm
// keeps (duals, slacks) is non-negative, so unsigned arithmetic with headroom suffices.
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <algorithm>
#include <cstdint>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif
#include <new>
#include <vector>

namespace {

template <int K>
struct Num {
  uint64_t v[K];
};

template <int K>
inline Num<K> add(const Num<K>& a, const Num<K>& b) {
  Num<K> r;
  unsigned __int128 carry = 0;
  for (int i = 0; i < K; ++i) {
    unsigned __int128 s = (unsigned __int128)a.v[i] + b.v[i] + carry;
    r.v[i] = (uint64_t)s;
    carry = s >> 64;
  }
  return r;
}

template <int K>
inline Num<K> sub(const Num<K>& a, const Num<K>& b) {  // a >= b
  Num<K> r;
  uint64_t borrow = 0;
  for (int i = 0; i < K; ++i) {
    unsigned __int128 d = (unsigned __int128)a.v[i] - b.v[i] - borrow;
    r.v[i] = (uint64_t)d;
    borrow = (uint64_t)(d >> 64) & 1;
  }
  return r;
}

// a + b - c (never negative here) in one pass: a slack, the matcher's innermost step.
// With the carry instructions (x86-64) the whole matching named at update_slack took
// 2.1 billion instructions (callgrind), against 4.4 billion with add and sub in turn.
template <int K>
inline Num<K> sum_minus(const Num<K>& a, const Num<K>& b, const Num<K>& c) {
  Num<K> r;
#if defined(__x86_64__)
  unsigned char carry = 0, borrow = 0;
  for (int i = 0; i < K; ++i) {
    unsigned long long s, d;
    carry = _addcarry_u64(carry, a.v[i], b.v[i], &s);
    borrow = _subborrow_u64(borrow, s, c.v[i], &d);
    r.v[i] = d;
  }
#else
  r = sub(add(a, b), c);
#endif
  return r;
}

template <int K>
inline bool less(const Num<K>& a, const Num<K>& b) {
  for (int i = K - 1; i >= 0; --i)
    if (a.v[i] != b.v[i]) return a.v[i] < b.v[i];
  return false;
}

template <int K>
inline bool is_zero(const Num<K>& a) {
  for (int i = 0; i < K; ++i)
    if (a.v[i]) return false;
  return true;
}

template <int K>
inline Num<K> half(const Num<K>& a) {
  Num<K> r;
  for (int i = 0; i < K; ++i) r.v[i] = (a.v[i] >> 1) | (i + 1 < K ? a.v[i + 1] << 63 : 0);
  return r;
}

template <int K>
inline Num<K> twice(const Num<K>& a) {
  Num<K> r;
  for (int i = K - 1; i >= 0; --i) r.v[i] = (a.v[i] << 1) | (i > 0 ? a.v[i - 1] >> 63 : 0);
  return r;
}

// Vertices are 1..n, blossoms n+1..2n; 0 means none. S: 0 outer, 1 inner, -1 free.
template <int K>
class Matcher {
  using N = Num<K>;
  struct Edge {
    int u, v;  // u == 0: no edge
  };

 public:
  Matcher(int n, const int32_t* ends, const uint64_t* limbs, Py_ssize_t m)
      : n_(n), m_(2 * n + 1), w2_(m), id_((size_t)(n + 1) * (n + 1), -1), g_((size_t)m_ * m_, Edge{0, 0}),
        lab_(m_), slackd_(m_), match_(m_, 0), slack_(m_, 0), st_(m_, 0), pa_(m_, 0), s_(m_, -1), vis_(m_, 0),
        from_((size_t)m_ * (n + 1), 0), flower_(m_) {
    N top{};
    for (Py_ssize_t i = 0; i < m; ++i) {
      int a = ends[2 * i] + 1, b = ends[2 * i + 1] + 1;
      N w;
      std::copy(limbs + i * K, limbs + (i + 1) * K, w.v);
      if (less(top, w)) top = w;
      w2_[i] = twice(w);
      id_[(size_t)a * (n + 1) + b] = id_[(size_t)b * (n + 1) + a] = (int32_t)i;
      g(a, b) = Edge{a, b};
      g(b, a) = Edge{b, a};
    }
    for (int u = 0; u <= n; ++u) {
      st_[u] = u;
      if (u) from(u, u) = u;
    }
    for (int u = 1; u <= n; ++u) lab_[u] = top;
    nx_ = n;
  }

  // False if a signal handler raised (Ctrl-C, a time limit): checked after each stage.
  bool solve(int32_t* mate) {
    while (augment_once())
      if (interrupted()) return false;
    for (int u = 1; u <= n_; ++u) mate[u - 1] = match_[u] - 1;
    return true;
  }

 private:
  int n_, m_, nx_ = 0, stamp_ = 0;
  std::vector<N> w2_;         // twice each edge's weight
  std::vector<int32_t> id_;   // (n+1) x (n+1): the edge between two vertices, -1 if none
  std::vector<Edge> g_;
  std::vector<N> lab_;
  // slackd_[x]: dist(g(slack_[x], x)) under the current duals, kept beside slack_[x] so the
  // scan computes one distance per pair instead of three (callgrind: see update_slack).
  std::vector<N> slackd_;
  std::vector<int> match_, slack_, st_, pa_, s_, vis_, from_;
  std::vector<std::vector<int>> flower_;
  std::vector<int> queue_;
  size_t head_ = 0;

  Edge& g(int a, int b) { return g_[(size_t)a * m_ + b]; }
  int& from(int b, int x) { return from_[(size_t)b * (n_ + 1) + x]; }
  N dist(const Edge& e) { return sum_minus(lab_[e.u], lab_[e.v], w2_[id_[(size_t)e.u * (n_ + 1) + e.v]]); }
  static bool interrupted() {
    PyGILState_STATE state = PyGILState_Ensure();
    bool raised = PyErr_CheckSignals() != 0;
    PyGILState_Release(state);
    return raised;
  }

  // d: dist(g(u, x)). Recomputing the kept edge's distance at every comparison, as this
  // did before, cost more than half the instructions of a matching (callgrind, the
  // 222-player one of bench/data/round5-1000.trf's round: 10.3 billion, now 4.4 billion).
  void update_slack(int u, int x, const N& d) {
    if (!slack_[x] || less(d, slackd_[x])) {
      slack_[x] = u;
      slackd_[x] = d;
    }
  }
  void set_slack(int x) {
    slack_[x] = 0;
    for (int u = 1; u <= n_; ++u)
      if (g(u, x).u && st_[u] != x && s_[st_[u]] == 0) update_slack(u, x, dist(g(u, x)));
  }
  void push(int x) {
    if (x <= n_)
      queue_.push_back(x);
    else
      for (int y : flower_[x]) push(y);
  }
  void set_st(int x, int b) {
    st_[x] = b;
    if (x > n_)
      for (int y : flower_[x]) set_st(y, b);
  }
  int get_pr(int b, int xr) {
    std::vector<int>& f = flower_[b];
    int pr = (int)(std::find(f.begin(), f.end(), xr) - f.begin());
    if (pr % 2 == 1) {
      std::reverse(f.begin() + 1, f.end());
      return (int)f.size() - pr;
    }
    return pr;
  }
  void set_match(int u, int v) {
    Edge e = g(u, v);
    match_[u] = e.v;
    if (u > n_) {
      int xr = from(u, e.u), pr = get_pr(u, xr);
      std::vector<int>& f = flower_[u];
      for (int i = 0; i < pr; ++i) set_match(f[i], f[i ^ 1]);
      set_match(xr, v);
      std::rotate(f.begin(), f.begin() + pr, f.end());
    }
  }
  void augment(int u, int v) {
    for (;;) {
      int xnv = st_[match_[u]];
      set_match(u, v);
      if (!xnv) return;
      set_match(xnv, st_[pa_[xnv]]);
      u = st_[pa_[xnv]];
      v = xnv;
    }
  }
  int get_lca(int u, int v) {
    for (++stamp_; u || v; std::swap(u, v)) {
      if (!u) continue;
      if (vis_[u] == stamp_) return u;
      vis_[u] = stamp_;
      u = st_[match_[u]];
      if (u) u = st_[pa_[u]];
    }
    return 0;
  }
  void add_blossom(int u, int lca, int v) {
    int b = n_ + 1;
    while (b <= nx_ && st_[b]) ++b;
    if (b > nx_) ++nx_;
    lab_[b] = N{};
    s_[b] = 0;
    match_[b] = match_[lca];
    std::vector<int>& f = flower_[b];
    f.clear();
    f.push_back(lca);
    for (int x = u, y; x != lca; x = st_[pa_[y]]) {
      f.push_back(x);
      f.push_back(y = st_[match_[x]]);
      push(y);
    }
    std::reverse(f.begin() + 1, f.end());
    for (int x = v, y; x != lca; x = st_[pa_[y]]) {
      f.push_back(x);
      f.push_back(y = st_[match_[x]]);
      push(y);
    }
    set_st(b, b);
    for (int x = 1; x <= nx_; ++x) g(b, x) = g(x, b) = Edge{0, 0};
    for (int x = 1; x <= n_; ++x) from(b, x) = 0;
    for (int xs : f) {
      for (int x = 1; x <= nx_; ++x) {
        const Edge& e = g(xs, x);
        if (e.u && (!g(b, x).u || less(dist(e), dist(g(b, x))))) {
          g(b, x) = e;
          g(x, b) = g(x, xs);
        }
      }
      for (int x = 1; x <= n_; ++x)
        if (from(xs, x)) from(b, x) = xs;
    }
    set_slack(b);
  }
  void expand_blossom(int b) {  // an inner blossom whose dual reached 0
    std::vector<int>& f = flower_[b];
    for (int x : f) set_st(x, x);
    int xr = from(b, g(b, pa_[b]).u), pr = get_pr(b, xr);
    for (int i = 0; i < pr; i += 2) {
      int xs = f[i], xns = f[i + 1];
      pa_[xs] = g(xns, xs).u;
      s_[xs] = 1;
      s_[xns] = 0;
      slack_[xs] = 0;
      set_slack(xns);
      push(xns);
    }
    s_[xr] = 1;
    pa_[xr] = pa_[b];
    for (size_t i = pr + 1; i < f.size(); ++i) {
      s_[f[i]] = -1;
      set_slack(f[i]);
    }
    st_[b] = 0;
  }
  bool on_found_edge(Edge e) {
    int u = st_[e.u], v = st_[e.v];
    if (s_[v] == -1) {
      pa_[v] = e.u;
      s_[v] = 1;
      int nu = st_[match_[v]];
      slack_[v] = slack_[nu] = 0;
      s_[nu] = 0;
      push(nu);
    } else if (s_[v] == 0) {
      int lca = get_lca(u, v);
      if (!lca) {
        augment(u, v);
        augment(v, u);
        return true;
      }
      add_blossom(u, lca, v);
    }
    return false;
  }
  // One stage: grow alternating trees from every free vertex until a path augments
  // (true) or no dual change can improve the matching (false: it is optimal).
  bool augment_once() {
    std::fill(s_.begin() + 1, s_.begin() + nx_ + 1, -1);
    std::fill(slack_.begin() + 1, slack_.begin() + nx_ + 1, 0);
    queue_.clear();
    head_ = 0;
    for (int x = 1; x <= nx_; ++x)
      if (st_[x] == x && !match_[x]) {
        pa_[x] = 0;
        s_[x] = 0;
        push(x);
      }
    if (queue_.empty()) return false;
    for (;;) {
      while (head_ < queue_.size()) {
        int u = queue_[head_++];
        if (s_[st_[u]] == 1) continue;
        for (int v = 1; v <= n_; ++v) {
          const Edge& e = g(u, v);
          if (e.u && st_[u] != st_[v]) {
            N d = dist(e);
            if (is_zero(d)) {
              if (on_found_edge(e)) return true;
            } else {
              int x = st_[v];
              update_slack(u, x, x == v ? d : dist(g(u, x)));
            }
          }
        }
      }
      N d;
      std::fill(d.v, d.v + K, ~uint64_t{0});
      for (int b = n_ + 1; b <= nx_; ++b)
        if (st_[b] == b && s_[b] == 1) {
          N h = half(lab_[b]);
          if (less(h, d)) d = h;
        }
      for (int x = 1; x <= nx_; ++x)
        if (st_[x] == x && slack_[x]) {
          if (s_[x] == -1) {
            if (less(slackd_[x], d)) d = slackd_[x];
          } else if (s_[x] == 0) {
            N h = half(slackd_[x]);
            if (less(h, d)) d = h;
          }
        }
      for (int u = 1; u <= n_; ++u) {
        if (s_[st_[u]] == 0) {
          if (!less(d, lab_[u])) return false;  // an outer vertex's dual reached 0
          lab_[u] = sub(lab_[u], d);
        } else if (s_[st_[u]] == 1) {
          lab_[u] = add(lab_[u], d);
        }
      }
      N d2 = twice(d);
      for (int b = n_ + 1; b <= nx_; ++b)
        if (st_[b] == b) {
          if (s_[b] == 0)
            lab_[b] = add(lab_[b], d2);
          else if (s_[b] == 1)
            lab_[b] = sub(lab_[b], d2);
        }
      for (int x = 1; x <= nx_; ++x)
        if (st_[x] == x && slack_[x]) slackd_[x] = dist(g(slack_[x], x));  // the duals moved
      queue_.clear();
      head_ = 0;
      for (int x = 1; x <= nx_; ++x)
        if (st_[x] == x && slack_[x] && st_[slack_[x]] != x && is_zero(slackd_[x]))
          if (on_found_edge(g(slack_[x], x))) return true;
      for (int b = n_ + 1; b <= nx_; ++b)
        if (st_[b] == b && s_[b] == 1 && is_zero(lab_[b])) expand_blossom(b);
    }
  }
};

enum Outcome { kDone, kInterrupted, kNoMemory };

template <int K>
Outcome run(int n, const int32_t* ends, const uint64_t* limbs, Py_ssize_t m, int32_t* mate) {
  try {
    Matcher<K> matcher(n, ends, limbs, m);
    return matcher.solve(mate) ? kDone : kInterrupted;
  } catch (const std::bad_alloc&) {
    return kNoMemory;
  }
}

const int kLimbs[] = {1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32, 40, 48, 64};

PyObject* max_weight_matching(PyObject*, PyObject* args) {
  int n, k;
  Py_buffer ends, weights;
  if (!PyArg_ParseTuple(args, "iiy*y*", &n, &k, &ends, &weights)) return nullptr;
  PyObject* result = nullptr;
  Py_ssize_t m = ends.len / 8;
  bool known = std::find(std::begin(kLimbs), std::end(kLimbs), k) != std::end(kLimbs);
  if (n < 0 || ends.len % 8 || weights.len != m * k * 8 || !known) {
    PyErr_SetString(PyExc_ValueError, "expected n >= 0, int32 pairs, and k 64-bit limbs per edge with k in limbs()");
  } else {
    const int32_t* e = (const int32_t*)ends.buf;
    bool ok = true;
    for (Py_ssize_t i = 0; i < 2 * m; ++i) ok = ok && e[i] >= 0 && e[i] < n;
    for (Py_ssize_t i = 0; ok && i < m; ++i) ok = e[2 * i] != e[2 * i + 1];
    if (!ok) {
      PyErr_SetString(PyExc_ValueError, "an edge names a vertex out of range, or a loop");
    } else {
      result = PyBytes_FromStringAndSize(nullptr, (Py_ssize_t)n * 4);
      if (result) {
        int32_t* mate = (int32_t*)PyBytes_AS_STRING(result);
        const uint64_t* w = (const uint64_t*)weights.buf;
        Outcome outcome = kDone;
        Py_BEGIN_ALLOW_THREADS
        switch (k) {
#define TTT_CASE(K) \
  case K: outcome = run<K>(n, e, w, m, mate); break;
          TTT_CASE(1) TTT_CASE(2) TTT_CASE(3) TTT_CASE(4) TTT_CASE(5) TTT_CASE(6) TTT_CASE(8) TTT_CASE(10)
          TTT_CASE(12) TTT_CASE(16) TTT_CASE(20) TTT_CASE(24) TTT_CASE(32) TTT_CASE(40) TTT_CASE(48) TTT_CASE(64)
#undef TTT_CASE
        }
        Py_END_ALLOW_THREADS
        if (outcome != kDone) {
          Py_CLEAR(result);
          if (outcome == kNoMemory) PyErr_NoMemory();  // else the signal handler's exception is set
        }
      }
    }
  }
  PyBuffer_Release(&ends);
  PyBuffer_Release(&weights);
  return result;
}

PyObject* limbs(PyObject*, PyObject*) {
  PyObject* t = PyTuple_New(std::size(kLimbs));
  if (!t) return nullptr;
  for (size_t i = 0; i < std::size(kLimbs); ++i) PyTuple_SET_ITEM(t, i, PyLong_FromLong(kLimbs[i]));
  return t;
}

PyMethodDef methods[] = {
    {"max_weight_matching", max_weight_matching, METH_VARARGS,
     "max_weight_matching(n, k, ends, weights) -> bytes: the mate of each vertex (int32, -1 if none).\n"
     "ends: int32 vertex pairs; weights: k little-endian 64-bit limbs per edge, positive, with 4 bits "
     "of headroom at the top."},
    {"limbs", limbs, METH_NOARGS, "The limb counts k that max_weight_matching accepts."},
    {nullptr, nullptr, 0, nullptr}};

PyModuleDef module = {PyModuleDef_HEAD_INIT, "ttt_blossom", "Exact maximum weight matching.", -1, methods};

}  // namespace

PyMODINIT_FUNC PyInit_ttt_blossom() { return PyModule_Create(&module); }
