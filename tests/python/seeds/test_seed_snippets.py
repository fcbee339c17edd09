"""The tutorials' device idioms and Q&A snippets, with `import porta as torch`, on
every loaded device (the tutorials' 'cuda' becomes the device under test)."""
import numpy as np
import pytest

import porta as torch
from porta import nn


def test_device_objects_without_gpus():
    # torch.device('cpu'), torch.device('cuda'), torch.device('cuda:1')
    devices = torch.device('cpu'), torch.device('cuda'), torch.device('cuda:1')
    assert repr(devices) == ("(device(type='cpu'), device(type='cuda'), device(type='cuda', index=1))")
    assert isinstance(torch.cuda.device_count(), int)


def test_tutorial_try_gpu_helpers():
    def try_gpu(i=0):
        """如果存在，则返回gpu(i)，否则返回cpu()"""
        if torch.cuda.device_count() >= i + 1:
            return torch.device(f'cuda:{i}')
        return torch.device('cpu')

    def try_all_gpus():
        """返回所有可用的GPU，如果没有GPU，则返回[cpu(),]"""
        devices = [torch.device(f'cuda:{i}') for i in range(torch.cuda.device_count())]
        return devices if devices else [torch.device('cpu'), ]

    n = torch.cuda.device_count()
    assert try_gpu() == (torch.device('cuda:0') if n else torch.device('cpu'))
    assert try_gpu(10) == torch.device('cpu')
    assert len(try_all_gpus()) == max(n, 1)
    assert torch.try_gpu() in torch.try_all_gpus() + [torch.device('cpu')]


def test_tensors_on_a_device(device):
    X = torch.ones(2, 3, device=torch.device(device))
    assert X.device == torch.device(device)
    assert repr(X) == ("tensor([[1., 1., 1.],\n        [1., 1., 1.]]" +
                       ("" if device == "cpu" else f", device='{device}'") + ")")
    x = torch.tensor([1, 2, 3])
    assert x.device == torch.device('cpu')
    y = torch.ones(3, device=device)
    if device != "cpu":
        with pytest.raises(torch.DeviceMismatchError, match="Move one with"):
            x + y  # different devices: moving is explicit
    z = x.to(device) + y  # x.cuda(0) + y in the tutorial
    assert z.device == torch.device(device) and z.tolist() == [2, 3, 4]


def test_model_parameters_follow_the_model(device):
    net = nn.Sequential(nn.Linear(3, 1))
    X = torch.randn((2, 3))
    output = net(X)
    assert output.device == torch.device('cpu')
    X = X.to(device)  # X.cuda()
    net = net.to(device=torch.device(device))
    output = net(X)
    assert output.device == torch.device(device)
    assert all(p.device == torch.device(device) for p in net.parameters())


def test_data_labels_loss_and_intermediates_to_device(device):
    model = nn.Linear(4, 3)
    model = model.to(device)
    data = torch.randn(5, 4).to(device)
    labels = torch.tensor([0, 1, 2, 0, 1]).to(device)
    loss_function = torch.nn.CrossEntropyLoss()
    loss_function = loss_function.to(device)
    intermediate_result = model(data)
    intermediate_result = intermediate_result.to(device)
    loss = loss_function(intermediate_result, labels)
    assert loss.device == torch.device(device) and loss.item() > 0
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    with pytest.raises(AttributeError, match="follows the parameter"):  # 优化器不能to(cuda)
        optimizer.to(device)


def test_len_and_size_of_a_device_tensor(device):
    Xdata = torch.randn(7, 2, device=device)
    assert len(Xdata) == 7 and isinstance(len(Xdata), int)
    my_tensor = torch.tensor([1, 2, 3]).to(device)  # torch.tensor([1, 2, 3]).cuda()
    tensor_size = my_tensor.size()
    assert tensor_size[0] == 3 and isinstance(tensor_size[0], int)


def test_a_list_on_a_device(device, capsys):
    my_list = [1, 2, 3, 4, 5]
    my_tensor = torch.tensor(my_list).to(device)
    print(my_tensor)
    suffix = "" if device == "cpu" else f", device='{device}'"
    assert capsys.readouterr().out == f"tensor([1, 2, 3, 4, 5]{suffix})\n"
    with pytest.raises(AttributeError):
        my_list.cuda()


def test_parameters_of_a_device_model_into_a_list(device):
    net = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1)).to(device)
    result = []
    for param in net.parameters():
        result.append(param.cpu().detach().numpy().tolist())
    assert [np.asarray(r).shape for r in result] == [(3, 2), (3,), (1, 3), (1,)]
    x = torch.randn(2, 3, device=device)
    result = [x.tolist(), x.cpu().numpy()]
    assert result[0] == result[1].tolist()


def test_indexing_keeps_the_device(device):
    Xdata = torch.randn(2, 3, device=device)
    x = Xdata[0]
    assert x.device == torch.device(device)
    assert Xdata[1, 1:].device == Xdata[..., 0].device == torch.device(device)


def test_models_defined_then_moved(device):
    class MyModel(torch.nn.Module):
        def __init__(self):
            super(MyModel, self).__init__()
            self.linear = torch.nn.Linear(2, 1)

        def forward(self, x):
            return self.linear(x)

    model = MyModel().to(device)  # MyModel().cuda()
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]]).to(device)
    y = model(x)
    assert y.device == torch.device(device) and y.shape == (2, 1)

    class Activation(torch.nn.Module):
        def __init__(self):
            super(Activation, self).__init__()
            self.relu = torch.nn.ReLU()

        def forward(self, x):
            return self.relu(x)

    model = Activation()
    model.to(device)
    x = torch.tensor([-1.0, 2.0, -3.0])
    y = model(x.to(device))
    assert y.tolist() == [0.0, 2.0, 0.0] and y.device == torch.device(device)


def test_device_scalars_to_the_cpu_and_printing(device, capsys):
    x = torch.tensor(2.5, device=device)
    x_cpu = x.cpu()
    print(x_cpu)
    x_np = x.cpu().detach().numpy()
    print(x_np)
    print(x)
    suffix = "" if device == "cpu" else f", device='{device}'"
    assert capsys.readouterr().out == f"tensor(2.5000)\n2.5\ntensor(2.5000{suffix})\n"


def test_user_functions_run_on_the_device(device):
    def add(a, b):
        return a + b
    x = torch.ones(5).to(device)
    y = torch.ones(5).to(device)
    z = add(x, y)
    assert z.device == torch.device(device) and z.tolist() == [2.0] * 5


def test_to_twice_is_harmless(device):
    x = torch.randn(4, 4).to(device)
    again = x.to(device)
    assert again is x
    assert x.to(torch.device(device)) is x


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device: the literal .cuda() forms need one")
def test_literal_cuda_forms():
    my_tensor = torch.tensor([1, 2, 3]).cuda()
    assert my_tensor.device == torch.device("cuda:0") and my_tensor.size()[0] == 3
    x = torch.randn(4, 4).cuda()
    assert x.to("cuda") is x
    model = nn.Linear(2, 1).cuda()
    y = model(torch.tensor([[1.0, 2.0], [3.0, 4.0]]).cuda())
    assert y.device == torch.device("cuda:0")
    x = torch.tensor(2.5, device='cuda')
    assert repr(x) == "tensor(2.5000, device='cuda:0')"
    assert x.cpu().detach().numpy() == 2.5
