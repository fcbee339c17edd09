"""Devices as the tutorials use them: pick the best one there is, put the model and the data on it, train,
and bring results back. Data and model must share a device: mixing them is an error, as in PyTorch."""
import porta as torch
from porta import nn

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
print(f"Using {device} device")
assert torch.cuda.is_available() == (torch.cuda.device_count() > 0)
if torch.cuda.is_available():
    print("cuda devices:", [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())])

d = torch.device(device)
assert torch.device("cpu").type == "cpu" and torch.device("cuda:1").index == 1 and str(torch.device("cuda", 0)) == "cuda:0"

x = torch.ones(2, 3)
assert x.device == torch.device("cpu")
y = x.to(device)
assert y.device.type == d.type and y.is_cuda == (d.type == "cuda")
z = torch.randn(2, 3, device=device)
w = (y * 2 + z).cpu()
assert w.device.type == "cpu"
assert torch.allclose(w - z.cpu(), torch.full((2, 3), 2.0))

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1)).to(device)
assert all(p.device.type == d.type for p in model.parameters())
assert next(model.parameters()).device.type == d.type
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
X = torch.randn(64, 3).to(device)
target = X.sum(dim=1, keepdim=True)
for _ in range(100):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(X), target)
    loss.backward()
    optimizer.step()
print("loss", loss.item())
assert loss.item() < 0.1
prediction = model(X).detach().cpu().numpy()
assert prediction.shape == (64, 1)

# Tensors on different devices do not mix. On a machine with one device there is nothing to mix.
other = "cpu" if d.type != "cpu" else None
if other is not None:
    try:
        model(torch.randn(1, 3, device=other))
    except RuntimeError as e:
        print("as expected:", str(e).splitlines()[0])
    else:
        raise AssertionError("a cpu input to a model on another device ran")
