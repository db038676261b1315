/**
 * The in-process limiter counts fixed windows aligned to the clock's minutes. A test that must see
 * a key run out within one window first waits out a window about to end, so it cannot straddle two.
 */
export async function freshRateWindow(marginMs = 10_000, windowMs = 60_000): Promise<void> {
  const left = windowMs - (Date.now() % windowMs);
  if (left < marginMs) await new Promise((r) => setTimeout(r, left + 50));
}
