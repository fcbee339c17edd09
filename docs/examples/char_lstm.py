"""A character-level LSTM language model, written as for PyTorch with only the import changed.

It reads a real English text (the GNU GPL version 3, which Debian's base-files package ships at
/usr/share/common-licenses/GPL-3 on every Debian system), learns to predict each next character,
reports the validation loss against the uniform guess, and samples text at the end.

    python docs/examples/char_lstm.py                 # the full run: 1500 steps on the best device
    python docs/examples/char_lstm.py --steps 60      # the tests' short schedule
"""
import argparse
import math

import porta as torch
import porta.nn as nn
import porta.nn.functional as F

TEXT = "/usr/share/common-licenses/GPL-3"


class CharLSTM(nn.Module):
    def __init__(self, vocab, embed=32, hidden=128, layers=2, dropout=0.1):
        super().__init__()
        self.embed = nn.Embedding(vocab, embed)
        self.lstm = nn.LSTM(embed, hidden, num_layers=layers, batch_first=True, dropout=dropout)
        self.head = nn.Linear(hidden, vocab)

    def forward(self, idx, state=None):
        out, state = self.lstm(self.embed(idx), state)
        return self.head(out), state


def batches(data, block, batch, generator, device):
    starts = torch.randint(0, len(data) - block - 1, (batch,), generator=generator)
    x = torch.stack([data[s:s + block] for s in starts.tolist()])
    y = torch.stack([data[s + 1:s + block + 1] for s in starts.tolist()])
    return x.to(device), y.to(device)


@torch.no_grad()
def sample(model, stoi, itos, device, prompt="This License", length=200, temperature=0.8):
    model.eval()
    idx = torch.tensor([[stoi[c] for c in prompt]], device=device)
    logits, state = model(idx)
    out = list(prompt)
    for _ in range(length):
        probs = F.softmax(logits[:, -1] / temperature, dim=-1)
        nxt = torch.multinomial(probs, 1)
        out.append(itos[nxt.item()])
        logits, state = model(nxt, state)
    model.train()
    return "".join(out)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=1500)
    p.add_argument("--device", default=None, help="a device string; default: the best available")
    p.add_argument("--text", default=TEXT)
    p.add_argument("--seed", type=int, default=1337)
    args = p.parse_args(argv)
    device = args.device or str(torch.try_gpu())

    with open(args.text, encoding="utf-8") as f:
        text = f.read()
    chars = sorted(set(text))
    stoi, itos = {c: i for i, c in enumerate(chars)}, dict(enumerate(chars))
    data = torch.tensor([stoi[c] for c in text], dtype=torch.int64)
    split = int(0.9 * len(data))
    train, val = data[:split], data[split:]

    torch.manual_seed(args.seed)
    g = torch.Generator().manual_seed(args.seed)
    model = CharLSTM(len(chars)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=max(args.steps, 1))
    uniform = math.log(len(chars))
    print(f"{len(text)} characters, {len(chars)} distinct (uniform guess: loss {uniform:.3f}), on {device}")

    for step in range(1, args.steps + 1):
        x, y = batches(train, 64, 32, g, device)
        logits, _ = model(x)
        loss = F.cross_entropy(logits.reshape(-1, len(chars)), y.reshape(-1))
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        if step % max(args.steps // 10, 1) == 0 or step == args.steps:
            print(f"step {step} train loss {loss.item():.3f}")

    model.eval()
    with torch.no_grad():
        x, y = batches(val, 128, 16, g, device)
        val_loss = F.cross_entropy(model(x)[0].reshape(-1, len(chars)), y.reshape(-1)).item()
    model.train()
    print(f"validation loss {val_loss:.3f} ({val_loss / uniform:.2f} of the uniform guess)")
    print("sample:", sample(model, stoi, itos, device))
    return val_loss, uniform


if __name__ == "__main__":
    main()
