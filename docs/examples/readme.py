import porta as torch              # PyTorch's API over Porta's C ABI
import porta.nn as nn
import numpy as np

device = torch.try_gpu()           # cuda:0 if there is one, else cpu
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 1)).to(device)
x, y = torch.randn(64, 10).to(device), torch.randn(64, 1).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
criterion = nn.MSELoss()
for step in range(100):
    loss = criterion(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 20 == 0:
        print(f"loss {loss.item():.4f} on {device}")

a = np.arange(6, dtype=np.float32).reshape(2, 3)
t = torch.from_dlpack(a)           # zero-copy: t and a share memory
t[0, 0] = 42
print(a[0, 0], np.from_dlpack(t).ctypes.data == a.ctypes.data)   # 42.0 True
