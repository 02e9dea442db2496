// The list's keys work from the moment its rows are on screen: a key pressed at once is not lost while
// some code loads (the keys came in a chunk of their own after the first paint, which dropped a `j`
// pressed in the first 0.2–0.5 s).
import { fireEvent, screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { saveConnection } from '@/api/http/connection';
import { createReport } from '@/api/reports';
import { resultForScore } from '@/contract/values';
import type { Analyser } from '../../../test/reference-server';
import { REAL_API_KEY, realApi, server } from '../../../test/msw';
import { renderReportsPage } from '../../../test/reports-list-kit';

beforeAll(async () => {
  await realApi().backend();
});

const analyser: Analyser = () =>
  Promise.resolve({
    score: 80,
    result: resultForScore(80),
    results: { title: { passed: true, importance: 'high', value: 'A page' } },
  });

describe('Reports: keys on the first view', () => {
  it('moves to the first row on a j pressed as soon as the first row shows', async () => {
    const api = realApi({ analyser });
    server.use(...api.handlers);
    saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
    await createReport({ url: 'https://docs.example/first' });
    await createReport({ url: 'https://docs.example/second' });
    const page = renderReportsPage();

    await screen.findByRole('link', { name: 'https://docs.example/second' });
    // At once, in the same task: no waiting for anything else to load.
    fireEvent.keyDown(document.body, { key: 'j', code: 'KeyJ' });
    expect(page.rows()[0]).toHaveFocus();
    expect(screen.getByText('https://docs.example/second, report 1 of 2')).toHaveAttribute('role', 'status');
  });
});
