/* A C11 program built against the INSTALLED headers and library only (see
 * install_tests.sh): the acceptance scenario in plain C. */
#include <porta/porta.h>
#include <stdio.h>
#include <string.h>

#define CHECK(x)                                                                     \
  do {                                                                               \
    porta_status s_ = (x);                                                           \
    if (s_ != PORTA_OK) {                                                            \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, porta_status_name(s_), \
              porta_last_error());                                                   \
      return 1;                                                                      \
    }                                                                                \
  } while (0)

int main(void) {
  DLDevice cpu, mock1, unused;
  CHECK(porta_device_parse("cpu", &cpu));
  CHECK(porta_device_parse("mock:1", &mock1));

  const float a[4] = {1, 2, 3, 4};
  const int64_t shape[2] = {2, 2};
  porta_tensor *x, *y, *z, *w;
  CHECK(porta_tensor_from_host(a, porta_float32, shape, 2, cpu, &x));
  CHECK(porta_tensor_from_host(a, porta_float32, shape, 2, mock1, &y));

  /* Mixing devices: DEVICE_MISMATCH naming both, and nothing written to z. */
  z = NULL;
  if (porta_add(y, x, &z) != PORTA_ERROR_DEVICE_MISMATCH || z != NULL) return 2;
  if (!strstr(porta_last_error(), "mock:1") || !strstr(porta_last_error(), "cpu")) return 3;
  printf("mismatch: %s\n", porta_last_error());

  /* Unknown type and missing device list what exists. */
  if (porta_device_parse("xpu", &unused) != PORTA_ERROR_NO_SUCH_DEVICE) return 4;
  printf("xpu: %s\n", porta_last_error());
  if (porta_device_parse("mock:7", &unused) != PORTA_ERROR_NO_SUCH_DEVICE) return 5;
  printf("mock:7: %s\n", porta_last_error());

  /* Move x to mock:1, multiply there, read back. */
  CHECK(porta_tensor_to(x, mock1, &z));
  CHECK(porta_matmul(y, z, &w));
  float out[4];
  CHECK(porta_tensor_to_host(w, out, sizeof out));
  printf("matmul on mock:1: %g %g %g %g\n", out[0], out[1], out[2], out[3]);
  if (out[0] != 7 || out[1] != 10 || out[2] != 15 || out[3] != 22) return 6;

  porta_tensor_release(w);
  porta_tensor_release(z);
  porta_tensor_release(y);
  porta_tensor_release(x);
  return 0;
}
