import { eventMatches, eventMatchesAny, eventTypes } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { checkEventPatterns } from './event-patterns.js';

describe('checkEventPatterns', () => {
  it.each([
    [['*'], ['*']],
    [['form.*'], ['form.*']],
    [['deploy.*', 'request.*'], ['deploy.*', 'request.*']],
    [['form.submission.created'], ['form.submission.created']],
    [['form.*,deploy.succeeded'], ['form.*', 'deploy.succeeded']],
    [[' form.* ', 'form.*', ''], ['form.*']],
    ['request.replied', ['request.replied']],
  ])('accepts %j', (input, patterns) => {
    expect(checkEventPatterns(input)).toEqual({ ok: true, patterns });
  });

  it.each([
    [[], /at least one pattern/],
    [[' , '], /at least one pattern/],
    [['form'], /"form" is not known/],
    [['forms.*'], /"forms.\*" is not known/],
    [['form.submission.*'], /not known/],
    [['*.created'], /not known/],
    [['form.submission.removed', 'deploy'], /"form.submission.removed", "deploy" are not known/],
    [[1], /list of event patterns/],
    [null, /list of event patterns/],
  ])('refuses %j', (input, problem) => {
    const result = checkEventPatterns(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem).toMatch(problem);
  });

  it('folds duplicates', () => {
    expect(checkEventPatterns([...eventTypes, ...eventTypes])).toEqual({ ok: true, patterns: eventTypes });
  });

  it('lists the known patterns when refusing one', () => {
    const result = checkEventPatterns(['nope']);
    expect(!result.ok && result.problem).toContain('*, form.*, deploy.*, request.*, form.submission.created');
  });
});

describe('event pattern matching', () => {
  it.each([
    ['*', 'form.submission.created', true],
    ['*', 'deploy.failed', true],
    ['form.*', 'form.submission.spam', true],
    ['form.*', 'deploy.started', false],
    ['deploy.*', 'deploy.promoted', true],
    ['request.*', 'request.resolved', true],
    ['request.*', 'form.submission.created', false],
    ['form.submission.created', 'form.submission.created', true],
    ['form.submission.created', 'form.submission.spam', false],
  ])('%s matches %s: %s', (pattern, type, expected) => {
    expect(eventMatches(pattern, type)).toBe(expected);
  });

  it('matches when any pattern matches', () => {
    expect(eventMatchesAny(['deploy.*', 'form.submission.spam'], 'form.submission.spam')).toBe(true);
    expect(eventMatchesAny(['deploy.*', 'form.submission.spam'], 'form.submission.created')).toBe(false);
  });
});
