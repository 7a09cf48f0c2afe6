/* A policy-value network evaluated in C (gnet.c) for the search's ``net`` mode (gsearch.h):
 * agents/az/network.py's PolicyValueNet, whose weights the binding copies in once.
 *
 * Shape: ``n_trunk`` tanh layers, a linear policy head of ``n_actions`` logits, and a value head
 * (one tanh layer of ``value_hidden`` units, then ``n_values`` outputs: one per seat, in the
 * observation's relative order, the observed seat first). Every weight matrix is stored input
 * major (``w[i * out + j]`` is input ``i``'s weight to output ``j``), so a layer is a sum of
 * rows, one per input that is not zero: an observation is mostly zeros, and the first layer,
 * the widest, costs only its non-zero inputs.
 */
#ifndef AIRSHIPS_GNET_H
#define AIRSHIPS_GNET_H

#define GN_MAX_LAYERS 4
#define GN_MAX_WIDTH 1024

typedef struct {
    int n_inputs, n_trunk, n_actions, value_hidden, n_values;
    int width[GN_MAX_LAYERS];                        /* the trunk's layer widths */
    const float *trunk_w[GN_MAX_LAYERS], *trunk_b[GN_MAX_LAYERS];
    const float *policy_w, *policy_b, *value_w, *value_b, *head_w, *head_b;
} GnNet;

/* One forward pass: ``x`` (n_inputs) in, ``logits`` (n_actions) and ``values`` (n_values) out
 * (either may be NULL: that head is not computed). */
void gn_forward(const GnNet *net, const float *x, float *logits, float *values);

#endif
