/** Reading JSON text before, or instead of, parsing it whole (request bodies, the dated schedule file). */

/** Where the string opened by the quote at `i` closes (a quote after an even run of backslashes), or -1. */
export function stringEnd(text: string, i: number): number {
  let j = i;
  for (;;) {
    j = text.indexOf('"', j + 1);
    if (j < 0) return -1;
    let b = j - 1;
    while (text.charCodeAt(b) === 92 /* backslash */) b--;
    if (((j - 1 - b) & 1) === 0) return j;
  }
}
