"""What a Python user would pick instead of gpugen, on the same GPU and sizes
as bench.cu: torch (sum, var_mean, argmax, a column sum for the structs and
float4, an argmin of |key| for argmin16, a count for above), a CuPy ReductionKernel and
Triton kernels written for this bench. Each peer is checked against a
reference before it is timed. Writes CSV rows
(case,peer,n,bytes,us,GBps,check) to the file named by argv[1], where case
is the bench.cu case the peer stands against, a table to stdout, and the
Triton tuning it tried to argv[1] with .csv replaced by _tuning.txt.

A peer whose result is wrong is not timed: its row has no time and its check
says how many results differed (Triton's max-subarray, whose tl.reduce
needs a commutative combine)."""
import sys

import torch

try:
    import cupy
except ImportError:  # CuPy rows are left out, and the table says so
    cupy = None

try:
    import triton
    import triton.language as tl
except ImportError:  # Triton rows are left out, and the table says so
    triton = None


def sizes(elem):
    return [1 << e for e in range(10, 29, 2)] + [(1 << 30) // elem]


def time_us(fn, nbytes):
    """The median of three timings, each the mean time per call over
    back-to-back calls (about 20 ms) after warm-up."""
    iters = int(min(2000, max(20, 0.02 * 3e12 / max(nbytes, 1))))
    for _ in range(5):
        fn()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    each = []
    for _ in range(3):
        start.record()
        for _ in range(iters):
            fn()
        end.record()
        end.synchronize()
        each.append(start.elapsed_time(end) * 1000.0 / iters)
    return sorted(each)[1]


def near(a, b, rel):
    return abs(a - b) <= rel * (abs(a) + abs(b)) + 1e-6


# ---- Triton ---------------------------------------------------------------
# Every kernel is a persistent grid-stride program (a few programs per SM,
# each folding whole tiles per lane with unmasked loads, the one partial
# tile masked), then a second one-program kernel that combines the
# per-program partials.
if triton is not None:

    @triton.jit
    def tr_sum_parts(x_ptr, n, part_ptr, BLOCK: tl.constexpr, ACC: tl.constexpr):
        pid = tl.program_id(0)
        nprog = tl.num_programs(0)
        offs = tl.arange(0, BLOCK)
        acc = tl.zeros([BLOCK], dtype=ACC)
        full = n // BLOCK
        for t in range(pid, full, nprog):
            acc += tl.load(x_ptr + t * BLOCK + offs).to(ACC)
        if full % nprog == pid:  # the partial tile: tile number `full` is this program's turn
            idx = full * BLOCK + offs
            acc += tl.load(x_ptr + idx, mask=idx < n, other=0).to(ACC)
        tl.store(part_ptr + pid, tl.sum(acc, axis=0))

    @triton.jit
    def tr_sum_finish(part_ptr, nparts, out_ptr, P: tl.constexpr):
        offs = tl.arange(0, P)
        tl.store(out_ptr, tl.sum(tl.load(part_ptr + offs, mask=offs < nparts, other=0), axis=0))

    @triton.jit
    def welford_combine(n_a, mean_a, m2_a, n_b, mean_b, m2_b):
        n = n_a + n_b
        w_b = n_b / tl.where(n == 0, 1.0, n)  # two empty states stay empty
        delta = mean_b - mean_a
        return n, mean_a + delta * w_b, m2_a + m2_b + delta * delta * (n_a * w_b)

    @triton.jit
    def tr_welford_parts(x_ptr, n, part_ptr, BLOCK: tl.constexpr):
        pid = tl.program_id(0)
        nprog = tl.num_programs(0)
        offs = tl.arange(0, BLOCK)
        cnt = tl.zeros([BLOCK], dtype=tl.float32)
        mean = tl.zeros([BLOCK], dtype=tl.float32)
        m2 = tl.zeros([BLOCK], dtype=tl.float32)
        full = n // BLOCK
        for t in range(pid, full, nprog):  # one division per element, as bench_ops.h's welford_fold
            x = tl.load(x_ptr + t * BLOCK + offs)
            cnt += 1.0
            delta = x - mean
            mean += delta / cnt
            m2 += delta * (x - mean)
        if full % nprog == pid:
            idx = full * BLOCK + offs
            live = idx < n
            x = tl.load(x_ptr + idx, mask=live, other=0.0)
            cnt += tl.where(live, 1.0, 0.0)
            delta = tl.where(live, x - mean, 0.0)
            mean += delta / tl.where(cnt == 0, 1.0, cnt)
            m2 += delta * (x - mean)
        pn, pmean, pm2 = tl.reduce((cnt, mean, m2), 0, welford_combine)
        tl.store(part_ptr + pid, pn)
        tl.store(part_ptr + nprog + pid, pmean)
        tl.store(part_ptr + 2 * nprog + pid, pm2)

    @triton.jit
    def tr_welford_finish(part_ptr, nparts, out_ptr, P: tl.constexpr):
        offs = tl.arange(0, P)
        live = offs < nparts
        pn = tl.load(part_ptr + offs, mask=live, other=0.0)
        pmean = tl.load(part_ptr + nparts + offs, mask=live, other=0.0)
        pm2 = tl.load(part_ptr + 2 * nparts + offs, mask=live, other=0.0)
        rn, rmean, rm2 = tl.reduce((pn, pmean, pm2), 0, welford_combine)
        tl.store(out_ptr, rn)
        tl.store(out_ptr + 1, rmean)
        tl.store(out_ptr + 2, rm2)

    # argmax, first index of the largest value. tl.argmax over each tile
    # (ties to the tile's first); the program keeps the first tile's winner
    # among equal values, as its tiles come in increasing order.
    @triton.jit
    def tr_argmax_parts(x_ptr, n, val_ptr, idx_ptr, BLOCK: tl.constexpr):
        pid = tl.program_id(0)
        nprog = tl.num_programs(0)
        offs = tl.arange(0, BLOCK)
        best_v = tl.full([], -float("inf"), dtype=tl.float32)
        best_i = tl.full([], 0, dtype=tl.int32)
        full = n // BLOCK
        for t in range(pid, full, nprog):
            x = tl.load(x_ptr + t * BLOCK + offs)
            i = tl.argmax(x, 0, tie_break_left=True)
            v = tl.max(x, 0)
            best_i = tl.where(v > best_v, t * BLOCK + i, best_i)
            best_v = tl.maximum(v, best_v)
        if full % nprog == pid:
            idx = full * BLOCK + offs
            x = tl.load(x_ptr + idx, mask=idx < n, other=-float("inf"))
            i = tl.argmax(x, 0, tie_break_left=True)
            v = tl.max(x, 0)
            best_i = tl.where(v > best_v, full * BLOCK + i, best_i)
            best_v = tl.maximum(v, best_v)
        tl.store(val_ptr + pid, best_v)
        tl.store(idx_ptr + pid, best_i)

    # The same with a running (value, index) per lane and one tl.argmax-like
    # step at the end: per lane the first index wins, and across lanes the
    # smallest index among the largest values.
    @triton.jit
    def tr_argmax_lanes_parts(x_ptr, n, val_ptr, idx_ptr, BLOCK: tl.constexpr):
        pid = tl.program_id(0)
        nprog = tl.num_programs(0)
        offs = tl.arange(0, BLOCK)
        best_v = tl.full([BLOCK], -float("inf"), dtype=tl.float32)
        best_i = tl.zeros([BLOCK], dtype=tl.int32)
        full = n // BLOCK
        for t in range(pid, full, nprog):
            x = tl.load(x_ptr + t * BLOCK + offs)
            best_i = tl.where(x > best_v, t * BLOCK + offs, best_i)
            best_v = tl.maximum(x, best_v)
        if full % nprog == pid:
            idx = full * BLOCK + offs
            x = tl.load(x_ptr + idx, mask=idx < n, other=-float("inf"))
            best_i = tl.where(x > best_v, idx, best_i)
            best_v = tl.maximum(x, best_v)
        m = tl.max(best_v, 0)
        tl.store(val_ptr + pid, m)
        tl.store(idx_ptr + pid, tl.min(tl.where(best_v == m, best_i, 2147483647), 0))

    @triton.jit
    def tr_argmax_finish(val_ptr, idx_ptr, nparts, out_ptr, P: tl.constexpr):
        offs = tl.arange(0, P)
        live = offs < nparts
        v = tl.load(val_ptr + offs, mask=live, other=-float("inf"))
        i = tl.load(idx_ptr + offs, mask=live, other=2147483647)
        m = tl.max(v, 0)
        tl.store(out_ptr, tl.min(tl.where(v == m, i, 2147483647), 0))

    # Max-subarray state (sum, best prefix, best suffix, best), int64. The
    # combine is associative but not commutative; tl.reduce requires
    # commutativity, so its tree may combine in the wrong order.
    @triton.jit
    def maxsub_combine(s_a, p_a, x_a, b_a, s_b, p_b, x_b, b_b):
        return (s_a + s_b, tl.maximum(p_a, s_a + p_b), tl.maximum(x_b, s_b + x_a),
                tl.maximum(tl.maximum(b_a, b_b), x_a + p_b))

    # Everything but tl.reduce inside a tile is in order: each program takes a
    # contiguous run of tiles and folds their states left to right, and the
    # second kernel folds the programs' states left to right.
    @triton.jit
    def tr_maxsub_parts(x_ptr, n, part_ptr, BLOCK: tl.constexpr):
        pid = tl.program_id(0)
        nprog = tl.num_programs(0)
        offs = tl.arange(0, BLOCK)
        ntiles = (n + BLOCK - 1) // BLOCK
        lo = pid * ntiles // nprog
        hi = (pid + 1) * ntiles // nprog
        NEG: tl.constexpr = -4611686018427387904
        s = tl.zeros([], dtype=tl.int64)
        p = tl.full([], NEG, dtype=tl.int64)
        x = tl.full([], NEG, dtype=tl.int64)
        b = tl.full([], NEG, dtype=tl.int64)
        for t in range(lo, hi):
            idx = t * BLOCK + offs
            live = idx < n
            v = tl.load(x_ptr + idx, mask=live, other=0).to(tl.int64)
            w = tl.where(live, v, NEG)
            ts, tp, tx, tb = tl.reduce((v, w, w, w), 0, maxsub_combine)
            s, p, x, b = maxsub_combine(s, p, x, b, ts, tp, tx, tb)
        tl.store(part_ptr + 4 * pid, s)
        tl.store(part_ptr + 4 * pid + 1, p)
        tl.store(part_ptr + 4 * pid + 2, x)
        tl.store(part_ptr + 4 * pid + 3, b)

    @triton.jit
    def tr_maxsub_finish(part_ptr, nparts, out_ptr):
        NEG: tl.constexpr = -4611686018427387904
        s = tl.zeros([], dtype=tl.int64)
        p = tl.full([], NEG, dtype=tl.int64)
        x = tl.full([], NEG, dtype=tl.int64)
        b = tl.full([], NEG, dtype=tl.int64)
        for k in range(0, nparts):
            s, p, x, b = maxsub_combine(s, p, x, b, tl.load(part_ptr + 4 * k), tl.load(part_ptr + 4 * k + 1),
                                        tl.load(part_ptr + 4 * k + 2), tl.load(part_ptr + 4 * k + 3))
        tl.store(out_ptr, s)
        tl.store(out_ptr + 1, p)
        tl.store(out_ptr + 2, x)
        tl.store(out_ptr + 3, b)


def sms():
    return torch.cuda.get_device_properties(0).multi_processor_count


class TritonReduction:
    """One two-kernel Triton reduction at one tuning: BLOCK elements a tile,
    num_warps, and programs per SM. call(x) returns the output tensor."""

    def __init__(self, kind, block, warps, per_sm, parts_kernel=None):
        self.kind, self.block, self.warps, self.per_sm = kind, block, warps, per_sm
        self.parts_kernel = parts_kernel

    compiled = None  # the first-level kernel as last launched (registers, spills)

    def resources(self):
        k = self.compiled
        if k is None:
            return "resources unknown"
        try:
            shared = k.metadata.shared
        except AttributeError:
            shared = "?"
        return "%s registers, %s spills, %s bytes of shared memory" % (
            getattr(k, "n_regs", "?"), getattr(k, "n_spills", "?"), shared)

    def label(self):
        extra = "" if self.parts_kernel is None else " " + self.parts_kernel.fn.__name__
        return "BLOCK=%d num_warps=%d programs/SM=%d%s" % (self.block, self.warps, self.per_sm, extra)

    def prepare(self, x):
        """Buffers for input x, and the call that reduces it."""
        n = x.numel()
        nprog = max(1, min(sms() * self.per_sm, triton.cdiv(n, self.block)))
        P = triton.next_power_of_2(nprog)
        dev = x.device
        B, W = self.block, self.warps
        if self.kind == "sum":
            acc = {torch.int32: tl.int32, torch.float32: tl.float32, torch.float64: tl.float64}[x.dtype]
            part = torch.empty(nprog, dtype=x.dtype, device=dev)
            out = torch.empty(1, dtype=x.dtype, device=dev)

            def call():
                self.compiled = tr_sum_parts[(nprog,)](x, n, part, BLOCK=B, ACC=acc, num_warps=W)
                tr_sum_finish[(1,)](part, nprog, out, P=P, num_warps=4)
                return out
        elif self.kind == "welford":
            part = torch.empty(3 * nprog, dtype=torch.float32, device=dev)
            out = torch.empty(3, dtype=torch.float32, device=dev)

            def call():
                self.compiled = tr_welford_parts[(nprog,)](x, n, part, BLOCK=B, num_warps=W)
                tr_welford_finish[(1,)](part, nprog, out, P=P, num_warps=4)
                return out
        elif self.kind == "argmax":
            val = torch.empty(nprog, dtype=torch.float32, device=dev)
            idx = torch.empty(nprog, dtype=torch.int32, device=dev)
            out = torch.empty(1, dtype=torch.int32, device=dev)
            parts = self.parts_kernel

            def call():
                self.compiled = parts[(nprog,)](x, n, val, idx, BLOCK=B, num_warps=W)
                tr_argmax_finish[(1,)](val, idx, nprog, out, P=P, num_warps=4)
                return out
        elif self.kind == "maxsub":
            part = torch.empty(4 * nprog, dtype=torch.int64, device=dev)
            out = torch.empty(4, dtype=torch.int64, device=dev)

            def call():
                tr_maxsub_parts[(nprog,)](x, n, part, BLOCK=B, num_warps=W)
                tr_maxsub_finish[(1,)](part, nprog, out, num_warps=1)
                return out
        else:
            raise ValueError(self.kind)
        return call


# Tried for every Triton peer but max-subarray (which is not timed): tiles of
# 1K to 16K elements at 4 to 16 warps (8 to 32 elements per thread and
# tile), 2 to 8 programs per SM. Kept: the least time at 2^28 elements, where
# the GPU's time counts; below about 2^24 two launches from Python take
# longer than the kernels, whatever the tuning.
TUNINGS = [(1024, 4), (2048, 4), (2048, 8), (4096, 4), (4096, 8), (8192, 8), (8192, 16), (16384, 16)]
PER_SM = [2, 4, 8]


def tune(kind, inputs, check, log, parts_kernels=(None,)):
    """The best TritonReduction for kind, timed on inputs (a list of tensors;
    the first one's time decides); every candidate's result is checked first."""
    results = []
    for parts in parts_kernels:
        for block, warps in TUNINGS:
            for per_sm in PER_SM:
                cand = TritonReduction(kind, block, warps, per_sm, parts)
                times = []
                try:
                    for x in inputs:
                        call = cand.prepare(x)
                        if not check(x, call()):
                            raise RuntimeError("wrong result at n = %d" % x.numel())
                        times.append(time_us(call, x.numel() * x.element_size()))
                except Exception as e:  # a tuning that fails to compile or run is reported and skipped
                    log.write("%s %s: failed: %s\n" % (kind, cand.label(), str(e).splitlines()[0] if str(e) else e))
                    continue
                results.append((cand, times))
                log.write("%s %s: %s us\n" % (kind, cand.label(), " ".join("%.2f" % t for t in times)))
    if not results:
        return None
    cand, times = min(results, key=lambda r: r[1][0])
    log.write("%s kept: %s (%s)\n" % (kind, cand.label(), cand.resources()))
    log.flush()
    return cand


def maxsub_reference(x):
    """(sum, best prefix, best suffix, best) of int32 x, as the sequential fold
    from the identity: from prefix sums in int64 on the GPU."""
    s = torch.cumsum(x.to(torch.int64), 0)
    total = s[-1]
    before = torch.cat([torch.zeros(1, dtype=torch.int64, device=x.device), s[:-1]])  # sum before each element
    low = torch.cummin(before, 0).values  # least prefix sum ending before each element (the empty one included)
    return [int(total), int(s.max()), int(total - before.min()), int((s - low).max())]


def maxsub_fold(values):
    """The sequential fold itself (bench_ops.h's maxsub_fold), for checking
    maxsub_reference on small inputs."""
    NEG = -(1 << 62)
    s, p, x, b = 0, NEG, NEG, NEG
    for v in values:
        s += v
        p = max(p, s)
        x = max(x, 0) + v
        b = max(b, x)
    return [s, p, x, b]


def main():
    out_name = sys.argv[1] if len(sys.argv) > 1 else "peers.csv"
    out = open(out_name, "w")
    log = open(out_name[:-4] + "_tuning.txt" if out_name.endswith(".csv") else out_name + ".tuning", "w")
    out.write("case,peer,n,bytes,us,GBps,check\n")
    print("# torch %s, cupy %s, triton %s, %s" % (torch.__version__, cupy.__version__ if cupy else "missing",
                                                  triton.__version__ if triton else "missing",
                                                  torch.cuda.get_device_name()))
    print("%-9s %-22s %11s %10s %8s %s" % ("case", "peer", "n", "us", "GB/s", "check"))

    def row(case, name, n, nbytes, us, check):
        if us is None:  # a wrong answer is not timed
            print("%-9s %-22s %11d %10s %8s %s" % (case, name, n, "-", "-", check))
            out.write("%s,%s,%d,%d,,,%s\n" % (case, name, n, nbytes, check))
        else:
            gbps = nbytes / us / 1e3
            print("%-9s %-22s %11d %10.2f %8.1f %s" % (case, name, n, us, gbps, check))
            out.write("%s,%s,%d,%d,%.3f,%.2f,%s\n" % (case, name, n, nbytes, us, gbps, check))
        out.flush()
        sys.stdout.flush()

    def peer(case, name, n, x, fn, check):
        """Checks fn's result, then times it (or says why not)."""
        nbytes = x.numel() * x.element_size()
        try:
            ok = check(x, fn())
        except Exception as e:
            row(case, name, n, nbytes, None, "failed: " + (str(e).splitlines()[0] if str(e) else type(e).__name__))
            return
        row(case, name, n, nbytes, time_us(fn, nbytes) if ok else None, "same" if ok else "DIFFERENT")

    gen = torch.Generator(device="cuda").manual_seed(1)

    def floats(n):
        return torch.rand(n, device="cuda", generator=gen)

    def ints(n):
        return torch.randint(-100, 100, (n,), device="cuda", dtype=torch.int32, generator=gen)

    # references, in float64 or exact
    def same_sum(x, r):
        want = torch.sum(x.to(torch.float64) if x.is_floating_point() else x.to(torch.int64)).item()
        got = r.reshape(-1)[0].item()
        return got == want if not x.is_floating_point() else near(got, want, 1e-9 if x.dtype == torch.float64 else 1e-4)

    def same_welford(x, r):
        var, mean = torch.var_mean(x.to(torch.float64), correction=0)
        n, m, m2 = [float(v) for v in r.reshape(-1)[:3].tolist()]
        return near(n, x.numel(), 1e-6) and near(m, mean.item(), 1e-4) and near(m2 / n, var.item(), 1e-3)

    def same_var_mean(x, r):
        var, mean = torch.var_mean(x.to(torch.float64))
        return near(r[1].item(), mean.item(), 1e-4) and near(r[0].item(), var.item(), 1e-3)

    def same_argmax(x, r):
        return int(r.reshape(-1)[0].item()) == int(torch.argmax(x).item())  # torch: the first of equal maxima

    def same_sumsq(x, r):
        return int(r.item()) == int(torch.sum(x.to(torch.int64) ** 2).item())

    def same_columns(x, r):  # a struct's or float4's fields summed one by one (float64 reference)
        want = torch.sum(x.to(torch.float64), dim=0)
        return all(near(g, w, 1e-4) for g, w in zip(r.tolist(), want.tolist()))

    def same_short_columns(x, r):  # short fields wrap as gpugen's (and C's) short sums do
        want = [((v + 32768) % 65536) - 32768 for v in torch.sum(x.to(torch.int64), dim=0).tolist()]
        return [int(v) for v in r.tolist()] == want

    def same_absmin(x, r):  # the lowest |key|, the first index among equal ones
        keys = torch.abs(x[:, 0])
        return int(r.item()) == int(torch.nonzero(keys == keys.min())[0].item())

    def same_count(x, r):
        return int(r.item()) == int(torch.sum((x.to(torch.float64) > 0.5).to(torch.int64)).item())

    # ---- torch and CuPy
    for n in sizes(4):
        x = floats(n)
        peer("welford", "torch.var_mean", n, x, lambda: torch.var_mean(x), same_var_mean)
        peer("float", "torch.sum", n, x, lambda: torch.sum(x), same_sum)
        peer("argmax", "torch.argmax", n, x, lambda: torch.argmax(x), same_argmax)
        del x
        xi = ints(n)
        peer("int32", "torch.sum", n, xi, lambda: torch.sum(xi), same_sum)
        del xi
    for n in sizes(8):
        xd = floats(n).to(torch.float64)
        peer("double", "torch.sum", n, xd, lambda: torch.sum(xd), same_sum)
        del xd
    # the struct and vector cases as a Python user holds them: an (n, fields) tensor
    for n in sizes(12):
        x3 = floats(3 * n).view(n, 3)
        peer("struct12", "torch.sum(dim=0)", n, x3, lambda: torch.sum(x3, dim=0), same_columns)
        del x3
    for n in sizes(6):
        s3 = torch.randint(-100, 100, (n, 3), device="cuda", dtype=torch.int16, generator=gen)
        peer("struct6", "torch.sum(dim=0)", n, s3, lambda: torch.sum(s3, dim=0, dtype=torch.int16), same_short_columns)
        del s3
    for n in sizes(16):
        x4 = floats(4 * n).view(n, 4)
        peer("float4", "torch.sum(dim=0)", n, x4, lambda: torch.sum(x4, dim=0), same_columns)
        del x4
        kv = torch.randint(-(1 << 40), 1 << 40, (n, 2), device="cuda", dtype=torch.int64, generator=gen)
        peer("argmin16", "torch.argmin(abs)", n, kv, lambda: torch.argmin(torch.abs(kv[:, 0])), same_absmin)
        del kv
    for n in sizes(4):
        x = floats(n)
        peer("above", "torch.count(x>t)", n, x, lambda: torch.count_nonzero(x > 0.5), same_count)
        del x
    if cupy is not None:
        sumsq = cupy.ReductionKernel("int32 x", "int64 y", "(long long)x * x", "a + b", "y = a", "0", "sumsq")
        for n in sizes(4):
            xi = ints(n)
            xc = cupy.asarray(xi)
            peer("sumsq", "cupy.sumsq_int64", n, xi, lambda: sumsq(xc), lambda x, r: same_sumsq(x, torch.as_tensor(r)))
            del xi, xc

    if triton is None:
        return
    # ---- Triton: tuned on 2^28 elements, then timed at every size
    tune_n = [1 << 28]
    cases = [  # case, peer name, kind, input maker, element size, check, argmax variants
        ("int32", "triton.sum", "sum", ints, 4, same_sum, (None,)),
        ("float", "triton.sum", "sum", floats, 4, same_sum, (None,)),
        ("double", "triton.sum", "sum", lambda n: floats(n).to(torch.float64), 8, same_sum, (None,)),
        ("welford", "triton.welford", "welford", floats, 4, same_welford, (None,)),
        ("argmax", "triton.argmax", "argmax", floats, 4, same_argmax, (tr_argmax_parts, tr_argmax_lanes_parts)),
    ]
    for case, name, kind, make, elem, check, variants in cases:
        best = tune(kind, [make(n) for n in tune_n], check, log, variants)
        if best is None:
            row(case, name, 0, 0, None, "failed: no tuning ran (see the tuning log)")
            continue
        print("# %s %s: %s (%s)" % (case, name, best.label(), best.resources()))
        for n in sizes(elem):
            x = make(n)
            call = best.prepare(x)
            peer(case, name, n, x, call, check)
            del x

    # ---- Triton's max-subarray: counted, not timed
    small = [[int(v) for v in torch.randint(-100, 100, (m,), generator=torch.Generator().manual_seed(m)).tolist()]
             for m in (1, 2, 3, 1000, 4097)]
    if any(maxsub_reference(torch.tensor(v, dtype=torch.int32, device="cuda")) != maxsub_fold(v) for v in small):
        print("# the max-subarray reference disagrees with the sequential fold: Triton's max-subarray not checked")
        return
    ms = TritonReduction("maxsub", 1024, 4, 4)
    trials = 5
    for n in sizes(4):
        wrong = 0
        try:
            for _ in range(trials):
                x = ints(n)
                got = [int(v) for v in ms.prepare(x)().tolist()]
                wrong += got != maxsub_reference(x)
                del x
        except Exception as e:
            row("maxsub", "triton.maxsub", n, 4 * n, None, "failed: " + (str(e).splitlines()[0] if str(e) else type(e).__name__))
            continue
        if wrong:
            row("maxsub", "triton.maxsub", n, 4 * n, None, "wrong: %d of %d differ from the sequential fold" % (wrong, trials))
        else:  # right every time: then it is timed like the others
            x = ints(n)
            peer("maxsub", "triton.maxsub", n, x, ms.prepare(x), lambda x, r: [int(v) for v in r.tolist()] == maxsub_reference(x))
            del x
    out.close()


if __name__ == "__main__":
    main()
