/**
 * RFC 4180 CSV: fields separated by commas, records ended by CRLF; a field holding a comma,
 * a double quote, CR or LF is enclosed in double quotes, with each double quote doubled.
 */
export function csvRecord(fields: readonly string[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** A submitted value as CSV text: strings as they are, other JSON values as JSON. */
export function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/**
 * A cell a spreadsheet would run as a formula (it starts with `=`, `+`, `-`, `@`, a tab or
 * a carriage return) made inert with a leading `'`, which spreadsheets hide; plain numbers
 * such as `-5` cannot be formulas and stay as they are (OWASP, "CSV Injection").
 */
export function neutralizeFormula(value: string): string {
  if (!/^[=+\-@\t\r]/.test(value)) return value;
  if (/^[+-]?\d+(\.\d+)?$/.test(value)) return value;
  return `'${value}`;
}
