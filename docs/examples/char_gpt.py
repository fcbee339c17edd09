"""A GPT-style character-level transformer, written as for PyTorch with only the import changed.

The shape of minGPT/nanoGPT: token and position embeddings, pre-LayerNorm blocks of causal
self-attention (F.scaled_dot_product_attention with is_causal=True) and a GELU MLP, dropout, AdamW
with two parameter groups (as nanoGPT's: every tensor of two or more dimensions decays, biases and
LayerNorm weights do not), a linear warm-up then cosine schedule (LambdaLR) and gradient clipping. It reads a real English text (the GNU GPL version 3, which Debian's base-files package
ships at /usr/share/common-licenses/GPL-3), reports the validation loss against the uniform guess,
and samples text at the end.

    python docs/examples/char_gpt.py                 # the full run: 2000 steps on the best device
    python docs/examples/char_gpt.py --steps 150     # the tests' short schedule
    char_gpt --steps 150                             # the C++ program (docs/examples/char_gpt.cpp)

tests/python/test_example_char_gpt.py runs this file as it is on Porta and, with the three import
lines below swapped for PyTorch's, on PyTorch from the same weights and batches: the two loss curves.
"""
import argparse
import math

import porta as torch
import porta.nn as nn
import porta.nn.functional as F

TEXT = "/usr/share/common-licenses/GPL-3"


class Config:
    def __init__(self, vocab_size, block_size=64, n_layer=2, n_head=4, n_embd=64, dropout=0.1):
        self.vocab_size, self.block_size = vocab_size, block_size
        self.n_layer, self.n_head, self.n_embd, self.dropout = n_layer, n_head, n_embd, dropout


class CausalSelfAttention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.n_head, self.n_embd, self.dropout = cfg.n_head, cfg.n_embd, cfg.dropout
        self.c_attn = nn.Linear(cfg.n_embd, 3 * cfg.n_embd)
        self.c_proj = nn.Linear(cfg.n_embd, cfg.n_embd)
        self.resid_dropout = nn.Dropout(cfg.dropout)

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)  # [B, heads, T, head size]
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        y = F.scaled_dot_product_attention(q, k, v, dropout_p=self.dropout if self.training else 0.0, is_causal=True)
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.resid_dropout(self.c_proj(y))


class MLP(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.c_fc = nn.Linear(cfg.n_embd, 4 * cfg.n_embd)
        self.gelu = nn.GELU()
        self.c_proj = nn.Linear(4 * cfg.n_embd, cfg.n_embd)
        self.dropout = nn.Dropout(cfg.dropout)

    def forward(self, x):
        return self.dropout(self.c_proj(self.gelu(self.c_fc(x))))


class Block(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.ln_1 = nn.LayerNorm(cfg.n_embd)
        self.attn = CausalSelfAttention(cfg)
        self.ln_2 = nn.LayerNorm(cfg.n_embd)
        self.mlp = MLP(cfg)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.wte = nn.Embedding(cfg.vocab_size, cfg.n_embd)
        self.wpe = nn.Embedding(cfg.block_size, cfg.n_embd)
        self.drop = nn.Dropout(cfg.dropout)
        self.h = nn.ModuleList([Block(cfg) for _ in range(cfg.n_layer)])
        self.ln_f = nn.LayerNorm(cfg.n_embd)
        self.lm_head = nn.Linear(cfg.n_embd, cfg.vocab_size, bias=False)
        self.apply(self._init_weights)
        for name, p in self.named_parameters():  # GPT-2's scaled init of the residual projections
            if name.endswith("c_proj.weight"):
                nn.init.normal_(p, mean=0.0, std=0.02 / math.sqrt(2 * cfg.n_layer))

    @staticmethod
    def _init_weights(module):
        if isinstance(module, (nn.Linear, nn.Embedding)):
            nn.init.normal_(module.weight, mean=0.0, std=0.02)
        if isinstance(module, nn.Linear) and module.bias is not None:
            nn.init.zeros_(module.bias)

    def forward(self, idx, targets=None):
        B, T = idx.size()
        pos = torch.arange(0, T, dtype=torch.long, device=idx.device)
        x = self.drop(self.wte(idx) + self.wpe(pos))
        for block in self.h:
            x = block(x)
        logits = self.lm_head(self.ln_f(x))
        if targets is None:
            return logits, None
        return logits, F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))

    def configure_optimizer(self, lr, weight_decay=0.1, betas=(0.9, 0.95)):
        decay = [p for p in self.parameters() if p.dim() >= 2]
        no_decay = [p for p in self.parameters() if p.dim() < 2]
        groups = [{"params": decay, "weight_decay": weight_decay}, {"params": no_decay, "weight_decay": 0.0}]
        return torch.optim.AdamW(groups, lr=lr, betas=betas)

    @torch.no_grad()
    def generate(self, idx, max_new_tokens, temperature=0.8, top_k=None):
        for _ in range(max_new_tokens):
            logits, _ = self(idx[:, -self.cfg.block_size:])
            logits = logits[:, -1, :] / temperature
            if top_k is not None:
                v, _ = torch.topk(logits, min(top_k, logits.size(-1)))
                logits[logits < v[:, [-1]]] = -float("inf")
            nxt = torch.multinomial(F.softmax(logits, dim=-1), num_samples=1)
            idx = torch.cat((idx, nxt), dim=1)
        return idx


def warmup_cosine(warmup, steps):
    """The lr factor of step s: linear warm-up, then a cosine down to a tenth."""
    def factor(s):
        if s < warmup:
            return (s + 1) / warmup
        progress = (s - warmup) / max(steps - warmup, 1)
        return 0.1 + 0.9 * 0.5 * (1.0 + math.cos(math.pi * min(progress, 1.0)))
    return factor


def train(model, get_batch, steps, lr=3e-3, warmup=20, log_every=0):
    """Trains for `steps` steps on get_batch(step) -> (x, y); returns the loss of every step."""
    opt = model.configure_optimizer(lr)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, warmup_cosine(warmup, steps))
    losses = []
    model.train()
    for step in range(steps):
        x, y = get_batch(step)
        _, loss = model(x, y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        losses.append(loss.item())
        if log_every and ((step + 1) % log_every == 0 or step + 1 == steps):
            print(f"step {step + 1} train loss {losses[-1]:.3f} lr {sched.get_last_lr()[0]:.2e}")
    return losses


def random_batches(data, block, batch, generator, device):
    def get_batch(_step):
        starts = torch.randint(0, len(data) - block - 1, (batch,), generator=generator).tolist()
        x = torch.stack([data[s:s + block] for s in starts])
        y = torch.stack([data[s + 1:s + block + 1] for s in starts])
        return x.to(device), y.to(device)
    return get_batch


def load_text(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    chars = sorted(set(text))
    return text, {c: i for i, c in enumerate(chars)}, dict(enumerate(chars))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=2000)
    p.add_argument("--device", default=None, help="a device string; default: cuda when there is one, else cpu")
    p.add_argument("--text", default=TEXT)
    p.add_argument("--seed", type=int, default=1337)
    p.add_argument("--batch", type=int, default=32)
    p.add_argument("--losses", default=None, help="a file to write every step's training loss to")
    args = p.parse_args(argv)
    device = args.device or ("cuda" if torch.cuda.is_available() else "cpu")

    text, stoi, itos = load_text(args.text)
    data = torch.tensor([stoi[c] for c in text], dtype=torch.long)
    split = int(0.9 * len(data))
    train_data, val_data = data[:split], data[split:]

    torch.manual_seed(args.seed)
    g = torch.Generator().manual_seed(args.seed)
    cfg = Config(len(stoi))
    model = GPT(cfg).to(device)
    uniform = math.log(len(stoi))
    n_params = sum(p.numel() for p in model.parameters())
    print(f"{len(text)} characters, {len(stoi)} distinct (uniform guess: loss {uniform:.3f}); "
          f"{n_params} parameters on {device}")

    losses = train(model, random_batches(train_data, cfg.block_size, args.batch, g, device), args.steps,
                   log_every=max(args.steps // 10, 1))
    if args.losses:
        with open(args.losses, "w") as f:
            f.writelines(f"{loss!r}\n" for loss in losses)

    model.eval()
    with torch.no_grad():
        x, y = random_batches(val_data, cfg.block_size, 64, g, device)(0)
        val_loss = model(x, y)[1].item()
    print(f"validation loss {val_loss:.3f} ({val_loss / uniform:.2f} of the uniform guess)")
    prompt = torch.tensor([[stoi[c] for c in "This License"]], device=device)
    out = model.generate(prompt, 200, top_k=20)
    print("sample:", "".join(itos[i] for i in out[0].tolist()))
    return val_loss, uniform, losses


if __name__ == "__main__":
    main()
