"""d2l.ai's recurrent networks on a character-level language model: an RNN written from scratch (one-hot
inputs, a hidden state carried over the sequence, gradient clipping by hand), then nn.RNN, nn.GRU and
nn.LSTM with a linear head. The text is the GPL that Debian's base-files ships."""
import collections
import math

import porta as torch
from porta import nn
from porta.nn import functional as F

TEXT = "/usr/share/common-licenses/GPL-3"


def load_corpus(max_chars=20000):
    with open(TEXT, encoding="utf-8") as f:
        text = " ".join(f.read().lower().split())[:max_chars]
    vocab = sorted(collections.Counter(text))
    index = {c: i for i, c in enumerate(vocab)}
    return [index[c] for c in text], vocab


corpus, vocab = load_corpus()
print("vocabulary", len(vocab), "characters", len(corpus))


def seq_data_iter_sequential(corpus, batch_size, num_steps):
    """Consecutive minibatches: the state at the end of one batch continues into the next."""
    num_tokens = ((len(corpus) - 1) // batch_size) * batch_size
    Xs = torch.tensor(corpus[:num_tokens])
    Ys = torch.tensor(corpus[1:num_tokens + 1])
    Xs, Ys = Xs.reshape(batch_size, -1), Ys.reshape(batch_size, -1)
    num_batches = Xs.shape[1] // num_steps
    for i in range(0, num_steps * num_batches, num_steps):
        yield Xs[:, i: i + num_steps], Ys[:, i: i + num_steps]


print(F.one_hot(torch.tensor([0, 2]), len(vocab)).shape)
X = torch.arange(10).reshape((2, 5))
assert F.one_hot(X.T, 28).shape == (5, 2, 28)


def get_params(vocab_size, num_hiddens, device):
    num_inputs = num_outputs = vocab_size

    def normal(shape):
        return torch.randn(size=shape, device=device) * 0.01

    W_xh = normal((num_inputs, num_hiddens))
    W_hh = normal((num_hiddens, num_hiddens))
    b_h = torch.zeros(num_hiddens, device=device)
    W_hq = normal((num_hiddens, num_outputs))
    b_q = torch.zeros(num_outputs, device=device)
    params = [W_xh, W_hh, b_h, W_hq, b_q]
    for param in params:
        param.requires_grad_(True)
    return params


def init_rnn_state(batch_size, num_hiddens, device):
    return (torch.zeros((batch_size, num_hiddens), device=device),)


def rnn(inputs, state, params):
    W_xh, W_hh, b_h, W_hq, b_q = params
    H, = state
    outputs = []
    for X in inputs:
        H = torch.tanh(torch.mm(X, W_xh) + torch.mm(H, W_hh) + b_h)
        Y = torch.mm(H, W_hq) + b_q
        outputs.append(Y)
    return torch.cat(outputs, dim=0), (H,)


class RNNModelScratch:
    def __init__(self, vocab_size, num_hiddens, device, get_params, init_state, forward_fn):
        self.vocab_size, self.num_hiddens = vocab_size, num_hiddens
        self.params = get_params(vocab_size, num_hiddens, device)
        self.init_state, self.forward_fn = init_state, forward_fn

    def __call__(self, X, state):
        X = F.one_hot(X.T, self.vocab_size).type(torch.float32)
        return self.forward_fn(X, state, self.params)

    def begin_state(self, batch_size, device):
        return self.init_state(batch_size, self.num_hiddens, device)


def grad_clipping(net, theta):
    if isinstance(net, nn.Module):
        params = [p for p in net.parameters() if p.requires_grad]
    else:
        params = net.params
    norm = torch.sqrt(sum(torch.sum((p.grad ** 2)) for p in params))
    if norm > theta:
        for param in params:
            param.grad[:] *= theta / norm


def train_epoch(net, corpus, loss, updater, device, batch_size=32, num_steps=35):
    state, total, tokens = None, 0.0, 0
    for X, Y in seq_data_iter_sequential(corpus, batch_size, num_steps):
        if state is None:
            state = net.begin_state(batch_size=X.shape[0], device=device)
        else:
            if isinstance(net, nn.Module) and not isinstance(state, tuple):
                state.detach_()
            else:
                for s in state:
                    s.detach_()
        y = Y.T.reshape(-1)
        X, y = X.to(device), y.to(device)
        y_hat, state = net(X, state)
        l = loss(y_hat, y.long()).mean()
        if isinstance(updater, torch.optim.Optimizer):
            updater.zero_grad()
            l.backward()
            grad_clipping(net, 1)
            updater.step()
        else:
            l.backward()
            grad_clipping(net, 1)
            updater(batch_size=1)
        total += l.item() * y.numel()
        tokens += y.numel()
    return math.exp(total / tokens)


def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()


def predict(prefix, num_preds, net, vocab, device):
    index = {c: i for i, c in enumerate(vocab)}
    state = net.begin_state(batch_size=1, device=device)
    outputs = [index[prefix[0]]]

    def get_input():
        return torch.tensor([outputs[-1]], device=device).reshape((1, 1))

    for y in prefix[1:]:
        _, state = net(get_input(), state)
        outputs.append(index[y])
    for _ in range(num_preds):
        y, state = net(get_input(), state)
        outputs.append(int(y.argmax(dim=1).reshape(1)))
    return "".join(vocab[i] for i in outputs)


device = torch.device("cpu")
torch.manual_seed(0)
num_hiddens = 128
net = RNNModelScratch(len(vocab), num_hiddens, device, get_params, init_rnn_state, rnn)
state = net.begin_state(2, device)
Y, new_state = net(X.to(device), state)
assert Y.shape == (10, len(vocab)) and new_state[0].shape == (2, num_hiddens)
loss = nn.CrossEntropyLoss()
for epoch in range(3):
    ppl = train_epoch(net, corpus, loss, lambda batch_size: sgd(net.params, 1.0, batch_size), device)
    print(f"scratch RNN epoch {epoch + 1}: perplexity {ppl:.2f}")
print(predict("the program ", 30, net, vocab, device))
assert ppl < len(vocab) / 2, ppl


class RNNModel(nn.Module):
    """nn.RNN / nn.GRU / nn.LSTM and a linear output layer."""

    def __init__(self, rnn_layer, vocab_size):
        super(RNNModel, self).__init__()
        self.rnn = rnn_layer
        self.vocab_size = vocab_size
        self.num_hiddens = self.rnn.hidden_size
        self.num_directions = 2 if self.rnn.bidirectional else 1
        self.linear = nn.Linear(self.num_hiddens * self.num_directions, self.vocab_size)

    def forward(self, inputs, state):
        X = F.one_hot(inputs.T.long(), self.vocab_size)
        X = X.to(torch.float32)
        Y, state = self.rnn(X, state)
        output = self.linear(Y.reshape((-1, Y.shape[-1])))
        return output, state

    def begin_state(self, device, batch_size=1):
        if not isinstance(self.rnn, nn.LSTM):
            return torch.zeros((self.num_directions * self.rnn.num_layers, batch_size, self.num_hiddens),
                               device=device)
        return (torch.zeros((self.num_directions * self.rnn.num_layers, batch_size, self.num_hiddens),
                            device=device),
                torch.zeros((self.num_directions * self.rnn.num_layers, batch_size, self.num_hiddens),
                            device=device))


for layer in (nn.RNN(len(vocab), num_hiddens), nn.GRU(len(vocab), num_hiddens),
              nn.LSTM(len(vocab), num_hiddens, num_layers=2)):
    torch.manual_seed(0)
    net = RNNModel(layer, vocab_size=len(vocab)).to(device)
    updater = torch.optim.Adam(net.parameters(), lr=0.01)
    for epoch in range(2):
        ppl = train_epoch(net, corpus, loss, updater, device)
    print(f"{type(layer).__name__}: perplexity {ppl:.2f};", predict("the program ", 30, net, vocab, device))
    assert ppl < len(vocab) / 2, ppl
