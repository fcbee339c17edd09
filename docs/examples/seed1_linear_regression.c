/* Seed case 1 in C: Linear(10, 1) regression with MSELoss and SGD(lr=0.01)
 * for 100 epochs, printing the loss each epoch, on the device named by the
 * first argument (default: the best available, as try_gpu() picks it).
 *
 *   seed1_linear_regression_c [device]      e.g. cpu, mock:1, cuda:0 */
#include <math.h>
#include <porta/porta.h>
#include <stdio.h>

#define CHECK(x)                                                                        \
  do {                                                                                  \
    porta_status s_ = (x);                                                              \
    if (s_ != PORTA_OK) {                                                               \
      fprintf(stderr, "error: %s (%s)\n", porta_last_error(), porta_status_name(s_));   \
      return 1;                                                                         \
    }                                                                                   \
  } while (0)

int main(int argc, char** argv) {
  DLDevice device;
  if (argc > 1) {
    CHECK(porta_device_parse(argv[1], &device));
  } else {
    int32_t accelerators = 0;
    CHECK(porta_accelerator_count(&accelerators));
    if (accelerators > 0) CHECK(porta_accelerator_get(0, &device));
    else CHECK(porta_device_parse("cpu", &device));
  }
  char name[32];
  CHECK(porta_device_to_string(device, name, sizeof name));
  printf("Using device: %s\n", name);
  CHECK(porta_manual_seed(0));

  /* model = nn.Linear(10, 1), initialized as PyTorch does, on the device */
  const int64_t w_shape[2] = {1, 10}, b_shape[1] = {1};
  porta_tensor *weight, *bias;
  CHECK(porta_tensor_empty(porta_float32, w_shape, 2, device, &weight));
  CHECK(porta_tensor_empty(porta_float32, b_shape, 1, device, &bias));
  CHECK(porta_init_kaiming_uniform_(weight, sqrt(5.0)));
  CHECK(porta_init_uniform_(bias, -1.0 / sqrt(10.0), 1.0 / sqrt(10.0)));
  CHECK(porta_tensor_set_requires_grad(weight, 1));
  CHECK(porta_tensor_set_requires_grad(bias, 1));

  /* input_data = torch.randn(5, 10).to(device); target = torch.randn(5, 1).to(device) */
  const int64_t x_shape[2] = {5, 10}, y_shape[2] = {5, 1};
  porta_tensor *input, *target;
  CHECK(porta_randn(x_shape, 2, porta_float32, device, &input));
  CHECK(porta_randn(y_shape, 2, porta_float32, device, &target));

  /* criterion = nn.MSELoss(); optimizer = optim.SGD(model.parameters(), lr=0.01) */
  porta_tensor* params[2] = {weight, bias};
  porta_sgd_options sgd = {sizeof(porta_sgd_options), 0.01, 0.0, 0.0, 0.0, 0};
  porta_optimizer* optimizer;
  CHECK(porta_sgd_create(params, 2, &sgd, &optimizer));

  const int num_epochs = 100;
  for (int epoch = 0; epoch < num_epochs; ++epoch) {
    porta_tensor *output, *loss;
    CHECK(porta_linear(input, weight, bias, &output));
    CHECK(porta_mse_loss(output, target, PORTA_REDUCTION_MEAN, &loss));
    CHECK(porta_optimizer_zero_grad(optimizer));
    CHECK(porta_backward(loss, NULL));
    CHECK(porta_optimizer_step(optimizer));
    float value;
    CHECK(porta_tensor_to_host(loss, &value, sizeof value));
    printf("Epoch %d/%d, Loss: %.6f\n", epoch + 1, num_epochs, value);
    porta_tensor_release(loss);
    porta_tensor_release(output);
  }
  printf("Training finished!\n");

  porta_optimizer_release(optimizer);
  porta_tensor_release(target);
  porta_tensor_release(input);
  porta_tensor_release(bias);
  porta_tensor_release(weight);
  return 0;
}
