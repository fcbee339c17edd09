#include <porta/porta.h>
#include <stdio.h>

int main(void) {
  DLDevice dev;
  if (porta_device_parse("cpu", &dev) != PORTA_OK) { puts(porta_last_error()); return 1; }
  const float a[4] = {1, 2, 3, 4};
  const int64_t shape[2] = {2, 2};
  porta_tensor *x, *y;
  porta_tensor_from_host(a, porta_float32, shape, 2, dev, &x);
  porta_status s = porta_matmul(x, x, &y);          /* every call returns a status */
  if (s != PORTA_OK) { printf("%s: %s\n", porta_status_name(s), porta_last_error()); return 1; }
  float out[4];
  porta_tensor_to_host(y, out, sizeof out);
  printf("%g %g %g %g\n", out[0], out[1], out[2], out[3]);   /* 7 10 15 22 */
  porta_tensor_release(y);
  porta_tensor_release(x);
  return 0;
}
