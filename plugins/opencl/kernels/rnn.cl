// RNN kind: an LSTM step's pointwise part over contiguous [N, k H] matrices,
// one work-item per (row, hidden unit), with the elementwise kernels'
// sigmoid (1 / (1 + exp(-x))) and tanh.

#define SIGMOID(v) ((T)1 / ((T)1 + exp(-(v))))

__kernel void op_lstm_cell(long N, long H, __global const T* gi, long gi0, __global const T* gh, long gh0,
                           __global const T* c_prev, long cp0, __global T* h, long h0, __global T* cell, long c0,
                           __global T* act, long a0) {
  const long at = get_global_id(0);
  if (at >= N * H) return;
  const long r = at / H, k = at % H;
  __global const T* pi = gi + gi0 + r * 4 * H;
  __global const T* ph = gh + gh0 + r * 4 * H;
  __global T* a = act + a0 + r * 5 * H;
  const T i = SIGMOID(pi[k] + ph[k]), f = SIGMOID(pi[H + k] + ph[H + k]);
  const T g = tanh(pi[2 * H + k] + ph[2 * H + k]), o = SIGMOID(pi[3 * H + k] + ph[3 * H + k]);
  const T c = f * c_prev[cp0 + at] + i * g, t = tanh(c);
  a[k] = i;
  a[H + k] = f;
  a[2 * H + k] = g;
  a[3 * H + k] = o;
  a[4 * H + k] = t;
  cell[c0 + at] = c;
  h[h0 + at] = o * t;
}

__kernel void op_lstm_cell_backward(long N, long H, __global const T* dh, long dh0, __global const T* dh_next,
                                    long dhn0, __global const T* dc, long dc0, __global const T* dc_next, long dcn0,
                                    __global const T* act, long a0, __global const T* c_prev, long cp0,
                                    __global T* dgates, long dg0, __global T* dc_prev, long dcp0) {
  const long at = get_global_id(0);
  if (at >= N * H) return;
  const long r = at / H, k = at % H;
  __global const T* a = act + a0 + r * 5 * H;
  __global T* d = dgates + dg0 + r * 4 * H;
  const T i = a[k], f = a[H + k], g = a[2 * H + k], o = a[3 * H + k], t = a[4 * H + k];
  const T u = dh[dh0 + at] + dh_next[dhn0 + at];
  const T e = (dc[dc0 + at] + dc_next[dcn0 + at]) + (u * o) * ((T)1 - t * t);
  d[k] = (e * g) * (i * ((T)1 - i));
  d[H + k] = (e * c_prev[cp0 + at]) * (f * ((T)1 - f));
  d[2 * H + k] = (e * i) * ((T)1 - g * g);
  d[3 * H + k] = (u * t) * (o * ((T)1 - o));
  dc_prev[dcp0 + at] = e * f;
}
