/**
 * CBP entry numbers as CATAIR Appendix E ("Valid Entry Numbers") defines them: a 3-position entry
 * filer code (letters or digits), a 7-digit transaction number and a check digit, written
 * XXX-NNNNNNN-C. The check digit is the modulus 10 self-check digit of the ten positions before it,
 * the filer code's letters first turned into digits (A-I 1-9, J-R 1-9, S-Z 2-9, the usual numeric
 * equivalents of letters in a modulus 10 check): the units position and every other one leftwards
 * doubled, the digits of the products added to the undoubled digits, the sum subtracted from the next
 * multiple of ten. Appendix E's stored copies stop before its check-digit section; the letter values
 * and the method are those of CBP's ABI table for entry numbers as a public implementation quotes it
 * (AE Table 1, step one), the IBM modulus 10 letter table, and give its vectors (ABC-1234567-6,
 * 999-9999999-0). To be confirmed against CBP's own PDF.
 */

const LETTER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LETTER_VALUES = '12345678912345678923456789';

const digitOf = (c: string): number => (c >= '0' && c <= '9' ? Number(c) : Number(LETTER_VALUES[LETTER_DIGITS.indexOf(c)]));

/** The check digit of a filer code and transaction number (10 positions, letters only in the first 3). */
export function entryCheckDigit(base: string): number {
  let sum = 0;
  for (let i = 0; i < base.length; i++) {
    const d = digitOf(base[base.length - 1 - i]);
    // From the right: positions 0, 2, 4… doubled.
    const v = i % 2 === 0 ? d * 2 : d;
    sum += Math.floor(v / 10) + (v % 10);
  }
  return (10 - (sum % 10)) % 10;
}

/** An entry number checked: its CBP form `XXX-NNNNNNN-C`, or why it is not one. */
export type CheckedEntryNumber = { entryNumber: string } | { error: string };

const FORM = /^([A-Z0-9]{3})(\d{7})(\d)$/;

/** Reads an entry number written with or without dashes and spaces, any case. */
export function checkEntryNumber(input: string): CheckedEntryNumber {
  const bare = input.replace(/[\s-]/g, '').toUpperCase();
  const m = FORM.exec(bare);
  if (!m) return { error: `${input.trim() || '(empty)'} is not an entry number of CBP's form XXX-NNNNNNN-C (filer code of 3 letters or digits, 7 digits, check digit; CATAIR Appendix E)` };
  const expected = entryCheckDigit(m[1] + m[2]);
  if (expected !== Number(m[3])) return { error: `${m[1]}-${m[2]}-${m[3]} has the check digit ${m[3]}; CATAIR Appendix E gives ${expected} for ${m[1]}-${m[2]}` };
  return { entryNumber: `${m[1]}-${m[2]}-${m[3]}` };
}
