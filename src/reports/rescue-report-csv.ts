import type { CurrencyRow, RescueReport } from './rescue-report';

/**
 * The CSV export of a rescue report (docs/reports.md, "CSV"): RFC 4180 (CRLF lines, a header), one
 * row per group and currency, then one total row per currency. Each row counts the orders of its
 * group in its currency, so the rows of a column add up to the JSON totals.
 */
export const CSV_COLUMNS = [
  'row',
  'key',
  'currency',
  'evaluated',
  'approved',
  'declined',
  'submitted',
  'rescued',
  'expired',
  'recovered',
  'rescueRate',
  'attemptsPerRescue',
  'medianTimeToRescueSeconds',
] as const;

/**
 * A field as a spreadsheet should read it: quoted when it holds a comma, quote or line break, and
 * text a spreadsheet would run as a formula (a merchant's decline code starting with `=`, `+`, `-`
 * or `@`) prefixed with `'` (OWASP, CSV injection).
 */
function field(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function line(r: CurrencyRow): string {
  const f = r.figures;
  return [
    r.row,
    r.key,
    r.currency,
    f.evaluated,
    f.approved,
    f.declined,
    f.submitted,
    f.rescued,
    f.expired,
    f.recovered[0]?.amount ?? 0,
    f.rescueRate,
    f.attemptsPerRescue,
    f.medianTimeToRescueSeconds,
  ]
    .map(field)
    .join(',');
}

export function rescueReportCsv(report: RescueReport): string {
  return [CSV_COLUMNS.join(','), ...report.byCurrency.map(line)].map((l) => `${l}\r\n`).join('');
}
