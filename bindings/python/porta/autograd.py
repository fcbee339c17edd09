"""torch.autograd: grad mode per thread (no_grad, enable_grad, set_grad_enabled, inference_mode),
backward, grad and Function."""
from ._grad_mode import (_GradMode, detect_anomaly, enable_grad, inference_mode, is_anomaly_enabled,  # noqa: F401
                         is_grad_enabled, no_grad, set_detect_anomaly, set_grad_enabled)
from ._autograd_engine import backward, grad  # noqa: F401 - torch.autograd's names
from ._autograd_function import Function, FunctionCtx, once_differentiable  # noqa: F401
from ._gradcheck import GradcheckError, gradcheck, gradgradcheck  # noqa: F401
