"""torch.autograd.gradcheck and gradgradcheck: the Jacobian autograd computes (one backward per output
element) against central differences (two forward passes per input element), entry by entry, with
PyTorch's tolerance |analytical - numerical| <= atol + rtol |numerical|. Slow mode only; the inputs
should be float64, as PyTorch advises."""
import warnings

from ._autograd_engine import grad as _grad
from ._dtype import float64
from ._factories import randn_like, zeros_like
from ._grad_mode import enable_grad, no_grad
from ._tensor import Tensor


class GradcheckError(RuntimeError):
    """torch.autograd.gradcheck.GradcheckError: the Jacobians differ."""


def _as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _tensor_outputs(result):
    return [o for o in _as_tuple(result) if isinstance(o, Tensor)]


def _refuse(name, value, default):
    if value != default:
        raise NotImplementedError(f"gradcheck(): {name}={value!r} is not supported by Porta (slow mode, backward "
                                  "mode AD only)")


def _numerical(func, inputs, checked, eps):
    """d outputs / d inputs[i] by central differences: [output][input] -> rows (input element) of lists."""
    base = [x.detach().clone() if hasattr(x, "detach") else x for x in inputs]
    jac = None
    with no_grad():
        for i in checked:
            for k in range(base[i].numel()):
                values = []
                for sign in (1, -1):
                    shifted = list(base)
                    shifted[i] = base[i].clone()
                    flat = shifted[i].view(-1)
                    flat[k] = flat[k].item() + sign * eps
                    values.append([o.reshape(-1).tolist() for o in _tensor_outputs(func(*shifted))])
                if jac is None:
                    jac = [{j: [] for j in checked} for _ in values[0]]
                for o, (plus, minus) in enumerate(zip(*values)):
                    jac[o][i].append([(p - m) / (2 * eps) for p, m in zip(plus, minus)])
    return jac or []


def _analytical(outputs, inputs, checked):
    """The same Jacobian by backward passes with one-hot output gradients: [output][input] -> rows."""
    jac = []
    for o in outputs:
        per_input = {i: [[0.0] * o.numel() for _ in range(inputs[i].numel())] for i in checked}
        if o.requires_grad:
            for j in range(o.numel()):
                onehot = zeros_like(o)
                onehot.view(-1)[j] = 1.0
                grads = _grad(o, [inputs[i] for i in checked], onehot, retain_graph=True, allow_unused=True)
                for i, g in zip(checked, grads):
                    if g is not None:
                        for k, v in enumerate(g.reshape(-1).tolist()):
                            per_input[i][k][j] = v
        jac.append(per_input)
    return jac


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True, nondet_tol=0.0,
              check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
              check_batched_forward_grad=False, check_forward_ad=False, check_backward_ad=True, fast_mode=False,
              masked=None):
    """True when the gradients autograd computes for `func` at `inputs` (the tensors among them that
    require grad) match finite differences; else GradcheckError naming the output, the input and both
    Jacobians (or False with raise_exception=False). check_undefined_grad is accepted: Porta never
    hands a backward an undefined gradient."""
    for name, value, default in (("nondet_tol", nondet_tol, 0.0), ("check_grad_dtypes", check_grad_dtypes, False),
                                 ("check_batched_grad", check_batched_grad, False),
                                 ("check_batched_forward_grad", check_batched_forward_grad, False),
                                 ("check_forward_ad", check_forward_ad, False),
                                 ("check_backward_ad", check_backward_ad, True), ("fast_mode", fast_mode, False),
                                 ("masked", masked, None)):
        _refuse(name, value, default)
    inputs = _as_tuple(inputs)
    checked = [i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad]
    if not checked:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but none of the them "
                         "have requires_grad=True.")
    for i in checked:
        if inputs[i].dtype != float64:
            warnings.warn(f"Input #{i} requires gradient and is not a double precision floating point. This check "
                          "will likely fail if all the inputs are not of double precision floating point.")
    outputs = _tensor_outputs(func(*inputs))
    numerical = _numerical(func, inputs, checked, eps)
    analytical = _analytical(outputs, inputs, checked)
    for o, (num_o, ana_o) in enumerate(zip(numerical, analytical)):
        for i in checked:
            for row_n, row_a in zip(num_o[i], ana_o[i]):
                if any(abs(a - n) > atol + rtol * abs(n) for a, n in zip(row_a, row_n)):
                    if not raise_exception:
                        return False
                    raise GradcheckError(f"Jacobian mismatch for output {o} with respect to input {i},\n"
                                         f"numerical:{num_o[i]}\nanalytical:{ana_o[i]}\n")
    return True


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  gen_non_contig_grad_outputs=False,
                  raise_exception=True, nondet_tol=0.0, check_undefined_grad=True, check_grad_dtypes=False,
                  check_batched_grad=False, check_fwd_over_rev=False, check_rev_over_rev=True, fast_mode=False,
                  masked=False):
    """gradcheck of the gradients themselves: the second derivatives autograd records with create_graph
    against finite differences of the first. grad_outputs default to random values (float64, as the
    outputs' shapes), which are held fixed."""
    for name, value, default in (("gen_non_contig_grad_outputs", gen_non_contig_grad_outputs, False),
                                 ("check_fwd_over_rev", check_fwd_over_rev, False),
                                 ("check_rev_over_rev", check_rev_over_rev, True), ("masked", masked, False)):
        _refuse(name, value, default)
    inputs = _as_tuple(inputs)
    checked = [i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad]
    if grad_outputs is None:
        grad_outputs = [randn_like(o.detach()) for o in _tensor_outputs(func(*inputs)) if o.requires_grad]
    grad_outputs = list(_as_tuple(grad_outputs))

    def first_derivatives(*args):
        # gradcheck's finite differences call this under no_grad with detached copies: they get a graph here.
        args = [a.detach().requires_grad_() if i in checked and not a.requires_grad else a
                for i, a in enumerate(args)]
        with enable_grad():
            outs = [o for o in _tensor_outputs(func(*args)) if o.requires_grad]
            grads = _grad(outs, [args[i] for i in checked], grad_outputs, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(first_derivatives, inputs, eps=eps, atol=atol, rtol=rtol, raise_exception=raise_exception,
                     nondet_tol=nondet_tol, check_undefined_grad=check_undefined_grad,
                     check_grad_dtypes=check_grad_dtypes, check_batched_grad=check_batched_grad,
                     fast_mode=fast_mode)
