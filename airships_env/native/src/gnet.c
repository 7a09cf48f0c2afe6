/* The policy-value network's forward pass (gnet.h). Plain loops the compiler vectorises: each
 * layer adds one row of weights per non-zero input. */
#include "gnet.h"

#include <math.h>
#include <string.h>

/* out = act(b + sum_i x[i] * w[i, :]) for the ``n_in`` inputs (tanh when ``squash``). */
static void layer(const float *x, int n_in, const float *w, const float *b, int n_out,
                  int squash, float *out) {
    memcpy(out, b, sizeof(float) * (size_t)n_out);
    for (int i = 0; i < n_in; i++) {
        float v = x[i];
        if (v == 0.0f) continue;
        const float *row = w + (size_t)i * (size_t)n_out;
        for (int j = 0; j < n_out; j++) out[j] += v * row[j];
    }
    if (squash)
        for (int j = 0; j < n_out; j++) out[j] = tanhf(out[j]);
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
