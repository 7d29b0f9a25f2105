"""Spare area from physics: write amplification of greedy garbage collection under uniform random writes, and
what leaving part of a drive unused does to its rated endurance. Pure maths, no I/O.

The model (the large-block limit of greedy garbage collection, uniform random single-page overwrites, no TRIM):

    WA(alpha) = alpha / (alpha + W0(-alpha * exp(-alpha)))

    alpha = physical / logical capacity: the NAND that can hold user data or serve garbage collection, over the
            capacity the host writes to (> 1); W0 is the principal branch of the Lambert W function.

Sources:
  * L. Xiang, B. M. Kurkoski, "An Improved Analytic Expression for Write Amplification in NAND Flash",
    arXiv:1110.4245 (2011; ICNC 2012, doi 10.1109/ICCNC.2012.6167472): the closed form with the Lambert W
    function in the over-provisioning factor rho = alpha - 1; their check value, rho = 0.3 -> WA 2.36 (simulated
    2.35), is pinned by the tests.
  * P. Desnoyers, "Analytic Models of SSD Write Performance", ACM Transactions on Storage 10(2), 2014: a
    nearly-exact closed form for greedy cleaning under uniformly distributed random writes; with hot/cold
    separation, skewed traffic does better.
  * X.-Y. Hu, E. Eleftheriou, R. Haas, I. Iliadis, R. Pletka, "Write Amplification Analysis in Flash-Based Solid
    State Drives", SYSTOR 2009: the probabilistic model of write amplification against over-provisioning that
    these refine.
  * B. Van Houdt, "A Mean Field Model for a Class of Garbage Collection Algorithms in Flash-based Solid State
    Drives", SIGMETRICS 2013: a mean-field model of the same family of policies.
The tests also check the formula against a direct simulation of greedy garbage collection.

Endurance: a drive wears out after a fixed number of NAND program/erase cycles, and every host byte costs WA
NAND bytes, so leaving a share `s` of the user capacity unused (unpartitioned, or trimmed once and never written)
multiplies the host bytes it can take by

    gain = WA(alpha) / WA(alpha / (1 - s))

NAND that holds parity or firmware is neither user data nor spare, so it is left out of alpha where it is known
(the Intel SSD 320's ~20 GB of parity on the 300 GB drive). The model assumes uniform random writes: sequential
writes, and skewed writes on drives that separate hot and cold data, have less write amplification to lose, so
for them the gain is smaller than this (and their life already longer); TRIMmed free space inside the partition
counts as spare too, which the model does not see.
"""

from __future__ import annotations

import math

MODEL = ("write amplification of greedy garbage collection under uniform random writes, "
         "WA = alpha / (alpha + W0(-alpha e^-alpha)) (Xiang & Kurkoski 2011; Desnoyers 2014)")
_INV_E = math.exp(-1.0)


def lambert_w0(x: float) -> float:
    """The principal branch of the Lambert W function: the w >= -1 with w * e^w = x, for real x >= -1/e.

    Halley's iteration from a starting point that is good near the branch point, near 0 and for large x.
    """
    if math.isnan(x) or x < -_INV_E - 1e-15:
        raise ValueError(f"lambert_w0 is undefined for {x!r} (x must be at least -1/e)")
    if x <= -_INV_E:
        return -1.0
    if x == 0.0:
        return 0.0
    if x < -0.25:  # series about the branch point: p = sqrt(2 (e x + 1)), W = -1 + p - p^2/3 + 11/72 p^3
        p = math.sqrt(max(0.0, 2.0 * (math.e * x + 1.0)))
        w = -1.0 + p - p * p / 3.0 + 11.0 / 72.0 * p**3
    elif x < 3.0:
        w = math.log1p(x) * (1.0 - math.log1p(math.log1p(x)) / (2.0 + math.log1p(x)))
    else:
        w = math.log(x) - math.log(math.log(x))
    for _ in range(100):
        ew = math.exp(w)
        f = w * ew - x
        if w + 1.0 == 0.0:
            break
        step = f / (ew * (w + 1.0) - (w + 2.0) * f / (2.0 * w + 2.0))
        new = w - step
        if new < -1.0:  # stay on the principal branch
            new = (w - 1.0) / 2.0
        if abs(new - w) <= 1e-15 * (1.0 + abs(new)):
            return new
        w = new
    return w


def write_amplification(alpha: float) -> float:
    """WA of greedy garbage collection under uniform random writes; alpha = physical / logical capacity (> 1)."""
    if not alpha > 1.0:
        raise ValueError(f"alpha (physical / logical capacity) must exceed 1, got {alpha!r}")
    return alpha / (alpha + lambert_w0(-alpha * math.exp(-alpha)))


def alpha_of(nand_bytes: float, user_bytes: float, reserved_bytes: float = 0.0) -> float:
    """alpha of a drive: the NAND available to user data and garbage collection over the user capacity."""
    return (nand_bytes - reserved_bytes) / user_bytes


def endurance_gain(alpha: float, spare_fraction: float) -> float:
    """How many times more host bytes a drive takes when `spare_fraction` of its user capacity is left unused."""
    if not 0.0 <= spare_fraction < 1.0:
        raise ValueError(f"the unused share of the capacity must be in [0, 1), got {spare_fraction!r}")
    return write_amplification(alpha) / write_amplification(alpha / (1.0 - spare_fraction))
