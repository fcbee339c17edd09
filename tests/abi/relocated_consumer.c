/* A C11 program built against a relocated copy of the installed prefix only
 * (see install_tests.sh): a matmul on cpu, a tensor filled on the device of a
 * plugin that was itself built against that copy, and the errors for mixed
 * devices and devices that do not exist. */
#include <porta/porta.h>
#include <stdio.h>
#include <string.h>

#define CHECK(x)                                                                              \
  do {                                                                                        \
    porta_status s_ = (x);                                                                    \
    if (s_ != PORTA_OK) {                                                                     \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, porta_status_name(s_), porta_last_error()); \
      return 1;                                                                               \
    }                                                                                         \
  } while (0)

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s PLUGIN_DEVICE\n", argv[0]);
    return 2;
  }
  DLDevice cpu, plugged;
  CHECK(porta_device_parse("cpu", &cpu));
  const float a[4] = {1, 2, 3, 4};
  const int64_t shape[2] = {2, 2};
  porta_tensor *x, *y, *z;
  CHECK(porta_tensor_from_host(a, porta_float32, shape, 2, cpu, &x));
  CHECK(porta_matmul(x, x, &y));
  float out[4];
  CHECK(porta_tensor_to_host(y, out, sizeof out));
  if (out[0] != 7 || out[1] != 10 || out[2] != 15 || out[3] != 22) return 3;

  CHECK(porta_device_parse(argv[1], &plugged));
  CHECK(porta_full(shape, 2, 2.5, porta_float32, plugged, &z));
  CHECK(porta_tensor_to_host(z, out, sizeof out));
  for (int i = 0; i < 4; ++i)
    if (out[i] != 2.5f) return 4;
  printf("relocated: cpu matmul 7 10 15 22, %s full 2.5\n", argv[1]);

  /* Mixing devices: DEVICE_MISMATCH naming both, and nothing written. */
  porta_tensor* w = NULL;
  if (porta_add(z, x, &w) != PORTA_ERROR_DEVICE_MISMATCH || w != NULL) return 5;
  if (!strstr(porta_last_error(), argv[1]) || !strstr(porta_last_error(), "cpu")) return 6;
  /* An unknown type and a missing device: errors that list what exists. */
  DLDevice unused;
  if (porta_device_parse("xpu", &unused) != PORTA_ERROR_NO_SUCH_DEVICE) return 7;
  printf("xpu: %s\n", porta_last_error());
  if (porta_device_parse("cpu:7", &unused) != PORTA_ERROR_NO_SUCH_DEVICE) return 8;
  printf("cpu:7: %s\n", porta_last_error());
  porta_tensor_release(z);
  porta_tensor_release(y);
  porta_tensor_release(x);
  return 0;
}
