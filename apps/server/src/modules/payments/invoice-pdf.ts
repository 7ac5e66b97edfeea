import PDFDocument from 'pdfkit';

export interface InvoiceDocument {
  number: string;
  /** Unix seconds. */
  created: number;
  status: string;
  currency: string;
  total: number;
  description: string | null;
  lines: { description: string; amount: number }[];
  customer: { name: string; email: string };
  /** Printed as a "TEST MODE" mark: no real money moved. */
  testMode: boolean;
}

// The PDF standard fonts (no font files to ship) cover Windows-1252 only.
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

function printable(text: string): string {
  return [...text]
    .map((ch) => {
      const code = ch.codePointAt(0)!;
      if (code < 0x20 || (code >= 0x7f && code < 0xa0)) return ' ';
      return code <= 0xff || WIN_ANSI_EXTRA.has(ch) ? ch : '?';
    })
    .join('');
}

export function formatMoney(cents: number, currency: string): string {
  const sign = cents < 0 ? '-' : '';
  const amount = (Math.abs(cents) / 100).toFixed(2);
  return currency.toLowerCase() === 'usd'
    ? `${sign}$${amount}`
    : `${sign}${amount} ${currency.toUpperCase()}`;
}

export function formatDate(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 10);
}

/** An invoice as a PDF file: number, dates, lines, total, and the test-mode mark when it applies. */
export function renderInvoicePdf(invoice: InvoiceDocument): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: {
      Title: `Invoice ${invoice.number}`,
      Author: 'Mirror',
      CreationDate: new Date(invoice.created * 1000),
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = 50;
  const right = doc.page.width - 50;
  const amountX = right - 120;

  doc.font('Helvetica-Bold').fontSize(24).text('Mirror', left, 50);
  if (invoice.testMode) {
    doc
      .font('Helvetica-Bold')
      .fontSize(16)
      .fillColor('#c0392b')
      .text('TEST MODE', left, 56, { width: right - left, align: 'right' })
      .fillColor('black');
  }
  doc.font('Helvetica').fontSize(12).text('Invoice', left, 82);

  doc.moveDown(2).fontSize(10);
  const facts: [string, string][] = [
    ['Invoice number', invoice.number],
    ['Date of issue', formatDate(invoice.created)],
    ['Status', invoice.status],
    ['Billed to', `${invoice.customer.name} <${invoice.customer.email}>`],
  ];
  if (invoice.description) facts.push(['Description', invoice.description]);
  for (const [label, value] of facts) {
    const y = doc.y;
    doc.font('Helvetica-Bold').text(label, left, y, { width: 120 });
    doc.font('Helvetica').text(printable(value), left + 130, y, { width: right - left - 130 });
    doc.moveDown(0.3);
  }

  doc.moveDown(1.5);
  let y = doc.y;
  doc.font('Helvetica-Bold').text('Description', left, y).text('Amount', amountX, y, {
    width: 120,
    align: 'right',
  });
  y = doc.y + 4;
  doc.moveTo(left, y).lineTo(right, y).stroke();
  doc.font('Helvetica');
  for (const line of invoice.lines) {
    const top = y + 8;
    doc.text(printable(line.description), left, top, { width: amountX - left - 10 });
    const after = doc.y;
    doc.text(formatMoney(line.amount, invoice.currency), amountX, top, {
      width: 120,
      align: 'right',
    });
    y = Math.max(after, doc.y);
  }
  y += 6;
  doc.moveTo(left, y).lineTo(right, y).stroke();
  doc
    .font('Helvetica-Bold')
    .fontSize(12)
    .text('Total', left, y + 10)
    .text(formatMoney(invoice.total, invoice.currency), amountX, y + 10, {
      width: 120,
      align: 'right',
    });

  if (invoice.testMode) {
    doc
      .font('Helvetica')
      .fontSize(9)
      .fillColor('#555555')
      .text(
        'TEST MODE: this invoice was issued by the local test mode. No card was charged and no money moved.',
        left,
        y + 50,
        { width: right - left },
      );
  }
  doc.end();
  return done;
}
