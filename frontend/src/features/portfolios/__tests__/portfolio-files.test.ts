import { describe, expect, it } from 'vitest';
import { fileProblem, MAX_FILE_BYTES, sanitiseFileName } from '../api/portfolio-schema';

describe('sanitiseFileName (S3-safe ASCII keys)', () => {
  it('transliterates German umlauts and ß', () => {
    expect(sanitiseFileName('Präsentation.pdf')).toBe('Praesentation.pdf');
    expect(sanitiseFileName('Übersicht Größe.docx')).toBe('Uebersicht-Groesse.docx');
  });
  it('drops accents and replaces other characters', () => {
    expect(sanitiseFileName('café résumé (final)#1.pdf')).toBe('cafe-resume-final-1.pdf');
    expect(sanitiseFileName('../../etc/passwd')).toBe('etc-passwd');
    expect(sanitiseFileName('日本語.pdf')).toBe('file.pdf');
  });
  it('keeps names short and the extension', () => {
    const long = sanitiseFileName(`${'a'.repeat(300)}.pdf`);
    expect(long.length).toBe(100);
    expect(long.endsWith('.pdf')).toBe(true);
    expect(sanitiseFileName('')).toBe('file');
  });
  it('produces only safe characters', () => {
    expect(sanitiseFileName('a b/c\\d:e?f*g"h<i>j|k€.png')).toMatch(/^[A-Za-z0-9._-]+$/);
  });
});

describe('fileProblem (type and 10 MB limit)', () => {
  it('accepts PDFs, images and office documents up to 10 MB', () => {
    expect(fileProblem({ type: 'application/pdf', size: MAX_FILE_BYTES })).toBeNull();
    expect(fileProblem({ type: 'image/png', size: 1 })).toBeNull();
  });
  it('refuses other types, empty and too large files', () => {
    expect(fileProblem({ type: 'application/x-msdownload', size: 10 })).toBe('portfolios.files.badType');
    expect(fileProblem({ type: 'text/html', size: 10 })).toBe('portfolios.files.badType');
    expect(fileProblem({ type: 'application/pdf', size: MAX_FILE_BYTES + 1 })).toBe('portfolios.files.tooLarge');
    expect(fileProblem({ type: 'application/pdf', size: 0 })).toBe('portfolios.files.tooLarge');
  });
});
