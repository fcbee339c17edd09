"""Tensors as PyTorch's "Tensors" tutorial and d2l.ai's "Data Manipulation" use them: creation, attributes,
indexing and slicing, joining, arithmetic, in-place ops, broadcasting, memory, and the bridge to NumPy."""
import numpy as np

import porta as torch

data = [[1, 2], [3, 4]]
x_data = torch.tensor(data)
np_array = np.array(data)
x_np = torch.from_numpy(np_array)
assert x_data.dtype == torch.int64 and torch.equal(x_data, x_np)

x_ones = torch.ones_like(x_data)
print(f"Ones Tensor: \n {x_ones} \n")
x_rand = torch.rand_like(x_data, dtype=torch.float)
print(f"Random Tensor: \n {x_rand} \n")
assert x_rand.dtype == torch.float32 and ((x_rand >= 0) & (x_rand < 1)).all()

shape = (2, 3,)
rand_tensor = torch.rand(shape)
ones_tensor = torch.ones(shape)
zeros_tensor = torch.zeros(shape)
assert rand_tensor.shape == ones_tensor.shape == zeros_tensor.shape == torch.Size([2, 3])

tensor = torch.rand(3, 4)
print(f"Shape of tensor: {tensor.shape}")
print(f"Datatype of tensor: {tensor.dtype}")
print(f"Device tensor is stored on: {tensor.device}")
assert tensor.device == torch.device("cpu")

tensor = torch.ones(4, 4)
print(f"First row: {tensor[0]}")
print(f"First column: {tensor[:, 0]}")
print(f"Last column: {tensor[..., -1]}")
tensor[:, 1] = 0
print(tensor)
assert tensor.sum().item() == 12

t1 = torch.cat([tensor, tensor, tensor], dim=1)
assert t1.shape == (4, 12)

y1 = tensor @ tensor.T
y2 = tensor.matmul(tensor.T)
y3 = torch.rand_like(y1)
torch.matmul(tensor, tensor.T, out=y3)
assert torch.equal(y1, y2) and torch.equal(y1, y3)
z1 = tensor * tensor
z2 = tensor.mul(tensor)
z3 = torch.rand_like(tensor)
torch.mul(tensor, tensor, out=z3)
assert torch.equal(z1, z2) and torch.equal(z1, z3)

agg = tensor.sum()
agg_item = agg.item()
print(agg_item, type(agg_item))
assert isinstance(agg_item, float) and agg_item == 12.0

print(f"{tensor} \n")
tensor.add_(5)
print(tensor)
assert tensor[0, 1].item() == 5

# The NumPy bridge shares memory on the CPU.
t = torch.ones(5)
n = t.numpy()
t.add_(1)
assert (n == 2).all()
n = np.ones(5)
t = torch.from_numpy(n)
np.add(n, 1, out=n)
assert t.dtype == torch.float64 and (t == 2).all()

# d2l: arange, reshape, numel, constructors.
x = torch.arange(12, dtype=torch.float32)
assert x.numel() == 12 and x.shape == (12,)
X = x.reshape(3, 4)
assert X.shape == (3, 4) and x.reshape(-1, 4).shape == (3, 4)
assert torch.zeros((2, 3, 4)).sum() == 0
torch.randn(3, 4)
T = torch.tensor([[2, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]])
assert T.shape == (3, 4)

# Elementwise operations.
x = torch.tensor([1.0, 2, 4, 8])
y = torch.tensor([2, 2, 2, 2])
print(x + y, x - y, x * y, x / y, x ** y)
assert torch.equal(x ** y, torch.tensor([1.0, 4, 16, 64]))
assert torch.allclose(torch.exp(x), torch.tensor(np.exp([1.0, 2, 4, 8]), dtype=torch.float32))
assert torch.equal(x // 3, torch.tensor([0.0, 0, 1, 2])) and torch.equal(x % 3, torch.tensor([1.0, 2, 1, 2]))

X = torch.arange(12, dtype=torch.float32).reshape((3, 4))
Y = torch.tensor([[2.0, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]])
assert torch.cat((X, Y), dim=0).shape == (6, 4) and torch.cat((X, Y), dim=1).shape == (3, 8)
assert (X == Y).sum() == 2
assert X.sum() == 66

# Broadcasting.
a = torch.arange(3).reshape((3, 1))
b = torch.arange(2).reshape((1, 2))
assert torch.equal(a + b, torch.tensor([[0, 1], [1, 2], [2, 3]]))

# Indexing and slicing.
assert torch.equal(X[-1], torch.tensor([8.0, 9, 10, 11])) and X[1:3].shape == (2, 4)
X[1, 2] = 9
X[0:2, :] = 12
assert X[:2].eq(12).all() and X[2, 0] == 8

# Saving memory: slice assignment and += write in place.
Z = torch.zeros_like(Y)
before = id(Z)
Z[:] = X + Y
assert id(Z) == before
before = id(X)
X += Y
assert id(X) == before

# Conversion to other Python objects.
A = X.numpy()
B = torch.from_numpy(A)
assert type(A).__name__ == "ndarray" and isinstance(B, torch.Tensor)
a = torch.tensor([3.5])
assert (a.item(), float(a), int(a)) == (3.5, 3.5, 3)
