import { describe, expect, it } from 'vitest';
import type { SubmissionInfo } from '../api/submissions.js';
import { SubmissionCsv } from './submission-csv.js';

const submission = (id: string, fields: Record<string, unknown>, files: SubmissionInfo['files'] = []): SubmissionInfo => ({
  id,
  state: 'inbox',
  createdAt: '2026-11-21T10:00:00.000Z',
  fields,
  files,
});

describe('submissions as CSV', () => {
  it('heads the columns with the union of field names, then fields that only carried files', () => {
    const csv = new SubmissionCsv({ fields: ['name', 'email'], fileFields: ['cv', 'name'] });
    expect(csv.headerRecord()).toBe('submission_id,submitted_at,name,email,cv\r\n');
  });

  it('leaves missing fields empty and writes file names, several joined with "; "', () => {
    const csv = new SubmissionCsv({ fields: ['name', 'email'], fileFields: ['cv'] });
    expect(csv.record(submission('sub_1', { email: 'a@b.co' }))).toBe('sub_1,2026-11-21T10:00:00.000Z,,a@b.co,\r\n');
    const files = [
      { field: 'cv', name: 'cv.pdf', size: 1, contentType: 'application/pdf' },
      { field: 'cv', name: 'letter, signed.pdf', size: 2, contentType: 'application/pdf' },
    ];
    expect(csv.record(submission('sub_2', { name: 'Ada' }, files))).toBe('sub_2,2026-11-21T10:00:00.000Z,Ada,,"cv.pdf; letter, signed.pdf"\r\n');
  });

  it('heads a field named like a meta column field:<name>, and keeps its value', () => {
    const csv = new SubmissionCsv({ fields: ['submission_id', 'message'], fileFields: [] });
    expect(csv.headerRecord()).toBe('submission_id,submitted_at,field:submission_id,message\r\n');
    expect(csv.record(submission('sub_3', { submission_id: 'mine', message: 'hi' }))).toBe('sub_3,2026-11-21T10:00:00.000Z,mine,hi\r\n');
  });

  it('puts fields past the export columns into one other_fields column as JSON, files as lists of names', () => {
    const csv = new SubmissionCsv({ fields: ['name'], fileFields: [], otherFields: true });
    expect(csv.headerRecord()).toBe('submission_id,submitted_at,name,other_fields\r\n');
    const files = [{ field: 'photo', name: 'a.png', size: 1, contentType: 'image/png' }];
    expect(csv.record(submission('sub_4', { name: 'Ada', x1: 'one', x2: 2 }, files))).toBe('sub_4,2026-11-21T10:00:00.000Z,Ada,"{""x1"":""one"",""x2"":2,""photo"":[""a.png""]}"\r\n');
    expect(csv.record(submission('sub_5', { name: 'Bo' }))).toBe('sub_5,2026-11-21T10:00:00.000Z,Bo,\r\n');
  });

  it('writes only the meta columns for an export without fields', () => {
    expect(new SubmissionCsv({ fields: [], fileFields: [] }).headerRecord()).toBe('submission_id,submitted_at\r\n');
  });

  it('keeps cells a spreadsheet would run as formulas from running, in values, file names and field names', () => {
    const csv = new SubmissionCsv({ fields: ['=cmd', 'a', 'b', 'c', 'd'], fileFields: ['cv'] });
    expect(csv.headerRecord()).toBe("submission_id,submitted_at,'=cmd,a,b,c,d,cv\r\n");
    const files = [{ field: 'cv', name: '@SUM(A1).pdf', size: 1, contentType: 'application/pdf' }];
    expect(csv.record(submission('sub_4', { a: '=HYPERLINK("http://evil")', b: '+1+1', c: '-5', d: '\tx' }, files))).toBe(
      `sub_4,2026-11-21T10:00:00.000Z,,"'=HYPERLINK(""http://evil"")",'+1+1,-5,'\tx,'@SUM(A1).pdf\r\n`,
    );
  });

  it('adds why each submission is in Spam to an export of Spam', () => {
    const csv = new SubmissionCsv({ state: 'spam', fields: ['a'], fileFields: [] });
    expect(csv.headerRecord()).toBe('submission_id,submitted_at,spam_reason,a\r\n');
    expect(csv.record({ ...submission('sub_6', { a: 'x' }), state: 'spam', spamReason: 'links' })).toBe('sub_6,2026-11-21T10:00:00.000Z,links,x\r\n');
  });

  it('writes cells exactly as submitted when asked for raw output', () => {
    const csv = new SubmissionCsv({ fields: ['a'], fileFields: [] }, { raw: true });
    expect(csv.record(submission('sub_5', { a: '=1+1' }))).toBe('sub_5,2026-11-21T10:00:00.000Z,=1+1\r\n');
  });
});
