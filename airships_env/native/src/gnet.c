/* The policy-value network's forward pass (gnet.h). Plain loops the compiler vectorises: each
 * layer adds one row of weights per non-zero input, four rows a pass over its outputs, and
 * squashes them with a tanh of plain arithmetic. On GCC for x86-64 Linux the two loops are also
 * built for AVX2, chosen at load time when the CPU has it (the same bits either way: no fused
 * multiply-add, -ffp-contract=off, and each output's terms are added in the same order). */
#include "gnet.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* an AVX2 build beside the baseline one, picked by the loader (an ifunc: GCC and glibc) */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define GN_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define GN_CLONES
#endif

/* tanh of each of ``v[0..n)``, in plain arithmetic the compiler vectorises (libm's tanhf is a
 * call per value: a fifth of a forward pass). tanh|x| = (1 - e) / (1 + e) with e = exp(-2|x|),
 * and e = 2^k * exp(r), |r| <= ln(2)/2, by a degree-7 Taylor polynomial: within 3e-7 of tanhf
 * (tests/native/test_gnet.py), the same bits with or without the AVX2 clone (no fused
 * multiply-add: -ffp-contract=off). |x| >= 9 gives +-1 (tanhf's float is 1 from 9.01 on). */
GN_CLONES
static void squash_all(float *v, int n) {
    for (int j = 0; j < n; j++) {
        int32_t ia; /* |v| clamped to 9 on its bits: integer order is float order for |v| */
        float a = fabsf(v[j]);
        memcpy(&ia, &a, sizeof ia);
        ia = ia < 0x41100000 ? ia : 0x41100000; /* 9.0f */
        memcpy(&a, &ia, sizeof a);
        float y = -2.0f * a;                        /* exp(y), y in [-18, 0] */
        int32_t k = (int32_t)(y * 1.44269504f - 0.5f); /* ceil(y / ln 2 - 0.5) */
        float r = (y - (float)k * 0.693145752f) - (float)k * 1.42860677e-6f;
        float p = 1.0f + r * (1.0f + r * (0.5f + r * (1.0f / 6 + r * (1.0f / 24 + r * (1.0f / 120
                  + r * (1.0f / 720 + r * (1.0f / 5040)))))));
        int32_t bits = (k + 127) << 23;
        float scale;
        memcpy(&scale, &bits, sizeof scale);
        float e = p * scale;
        v[j] = copysignf((1.0f - e) / (1.0f + e), v[j]);
    }
}

/* out += the rows of ``w`` for the inputs ``at[0..n)`` (n <= 4) times their values, four rows a
 * pass over ``out``: each output still adds its terms one at a time in input order, so the sums
 * are those of one row at a time, with a quarter of the loads and stores of ``out``. */
GN_CLONES
static void add_rows(const float *x, const int *at, int n, const float *w, int n_out, float *out) {
    const size_t stride = (size_t)n_out;
    if (n == 4) {
        const float v0 = x[at[0]], v1 = x[at[1]], v2 = x[at[2]], v3 = x[at[3]];
        const float *r0 = w + (size_t)at[0] * stride, *r1 = w + (size_t)at[1] * stride;
        const float *r2 = w + (size_t)at[2] * stride, *r3 = w + (size_t)at[3] * stride;
        for (int j = 0; j < n_out; j++) {
            float t = out[j];
            t += v0 * r0[j];
            t += v1 * r1[j];
            t += v2 * r2[j];
            t += v3 * r3[j];
            out[j] = t;
        }
        return;
    }
    for (int k = 0; k < n; k++) {
        const float v = x[at[k]];
        const float *row = w + (size_t)at[k] * stride;
        for (int j = 0; j < n_out; j++) out[j] += v * row[j];
    }
}

/* out = act(b + sum_i x[i] * w[i, :]) for the ``n_in`` inputs (tanh when ``squash``). */
static void layer(const float *x, int n_in, const float *w, const float *b, int n_out,
                  int squash, float *out) {
    memcpy(out, b, sizeof(float) * (size_t)n_out);
    int at[4], n = 0;
    for (int i = 0; i < n_in; i++) {
        if (x[i] == 0.0f) continue;
        at[n++] = i;
        if (n == 4) {
            add_rows(x, at, n, w, n_out, out);
            n = 0;
        }
    }
    if (n) add_rows(x, at, n, w, n_out, out);
    if (squash) squash_all(out, n_out);
}

void gn_forward(const GnNet *net, const float *x, float *logits, float *values) {
    float a[GN_MAX_WIDTH], b[GN_MAX_WIDTH], v[GN_MAX_WIDTH];
    const float *in = x;
    int n_in = net->n_inputs;
    float *out = a;
    for (int l = 0; l < net->n_trunk; l++) {
        layer(in, n_in, net->trunk_w[l], net->trunk_b[l], net->width[l], 1, out);
        in = out;
        n_in = net->width[l];
        out = out == a ? b : a;
    }
    if (logits) layer(in, n_in, net->policy_w, net->policy_b, net->n_actions, 0, logits);
    if (values) {
        layer(in, n_in, net->value_w, net->value_b, net->value_hidden, 1, v);
        layer(v, net->value_hidden, net->head_w, net->head_b, net->n_values, 0, values);
    }
}
