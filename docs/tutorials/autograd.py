"""Automatic differentiation as PyTorch's "Automatic Differentiation with torch.autograd" and d2l.ai's
"Automatic Differentiation" teach it: backward, .grad, gradients of non-scalars, detach, control flow, grad_fn,
no_grad, Jacobian-vector products with retain_graph, retain_grad, hooks, torch.autograd.grad and a second
derivative with create_graph."""
import porta as torch

# d2l: y = 2 x.x, dy/dx = 4x.
x = torch.arange(4.0)
x.requires_grad_(True)
print(x.grad)
y = 2 * torch.dot(x, x)
y.backward()
print(x.grad)
assert (x.grad == 4 * x).all()

x.grad.zero_()
y = x.sum()
y.backward()
assert (x.grad == torch.ones(4)).all()

# The gradient of a non-scalar: pass the vector v of v^T J.
x.grad.zero_()
y = x * x
y.backward(gradient=torch.ones(len(y)))
assert torch.equal(x.grad, 2 * x)

# Detaching: u is a constant to autograd.
x.grad.zero_()
y = x * x
u = y.detach()
z = u * x
z.sum().backward()
assert (x.grad == u).all()
x.grad.zero_()
y.sum().backward()
assert (x.grad == 2 * x).all()


# Python control flow: f(a) = k a for a k that depends on a, so df/da = f(a)/a.
def f(a):
    b = a * 2
    while b.norm() < 1000:
        b = b * 2
    if b.sum() > 0:
        c = b
    else:
        c = 100 * b
    return c


torch.manual_seed(0)
a = torch.randn(size=(), requires_grad=True)
d = f(a)
d.backward()
assert torch.allclose(a.grad, d / a)

# The PyTorch tutorial: a one-layer network and binary cross entropy.
x = torch.ones(5)
y = torch.zeros(3)
w = torch.randn(5, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
z = torch.matmul(x, w) + b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
print(f"Gradient function for z = {z.grad_fn}")
print(f"Gradient function for loss = {loss.grad_fn}")
assert z.grad_fn is not None and loss.grad_fn is not None
loss.backward()
print(w.grad)
print(b.grad)
p = torch.sigmoid(z.detach())
assert torch.allclose(b.grad, p / 3, atol=1e-6)
assert torch.allclose(w.grad, torch.outer(x, p / 3), atol=1e-6)

z = torch.matmul(x, w) + b
print(z.requires_grad)
with torch.no_grad():
    z = torch.matmul(x, w) + b
print(z.requires_grad)
assert not z.requires_grad
z = torch.matmul(x, w) + b
z_det = z.detach()
assert not z_det.requires_grad

# Jacobian-vector products; retain_graph=True lets backward run twice over one graph.
inp = torch.eye(4, 5, requires_grad=True)
out = (inp + 1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"First call\n{inp.grad}")
first = inp.grad.clone()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nSecond call\n{inp.grad}")
assert torch.equal(inp.grad, 2 * first)
inp.grad.zero_()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nCall after zeroing gradients\n{inp.grad}")
assert torch.equal(inp.grad, first)
assert torch.equal(first, 2 * (torch.eye(4, 5) + 1))

# The gradient of an intermediate: retain_grad, and a hook that sees (and can change) a gradient.
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
h = x * 2
h.retain_grad()
seen = []
h.register_hook(lambda g: seen.append(g.clone()))
x.register_hook(lambda g: g * 10)
(h ** 2).sum().backward()
assert torch.equal(h.grad, 2 * h.detach())
assert torch.equal(seen[0], 2 * h.detach())
assert torch.equal(x.grad, 10 * 2 * 2 * h.detach())

# torch.autograd.grad returns gradients instead of accumulating them; create_graph=True makes them
# differentiable again: the second derivative of x^3 is 6x.
x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = (x ** 3).sum()
(dy_dx,) = torch.autograd.grad(y, x, create_graph=True)
assert torch.allclose(dy_dx, 3 * x.detach() ** 2)
assert x.grad is None
(d2y_dx2,) = torch.autograd.grad(dy_dx.sum(), x)
assert torch.allclose(d2y_dx2, 6 * x.detach())
print("second derivative", d2y_dx2)
