/**
 * What `npm test` reads from a vitest JSON report: the counts, and each failed test's name with the
 * first line of its failure, printed beside the final count (CI keeps only the output's tail, so a
 * failure must be named there to be found).
 */

export interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults: {
    name: string;
    status: string;
    message?: string;
    assertionResults: { ancestorTitles: string[]; title: string; status: string; duration?: number | null; failureMessages?: string[] }[];
  }[];
}

/** `file › describe › title (duration): first line of the failure`, per failed test or file that failed to load; `root` is cut from the paths. */
export function failedVitestTests(report: VitestReport, root: string): string[] {
  const file = (name: string) => (name.startsWith(root) ? name.slice(root.length).replace(/^\//, '') : name);
  const firstLine = (text: string | undefined) => (text ?? '').trim().split('\n')[0]?.slice(0, 200) ?? '';
  return report.testResults.flatMap((result) => {
    if (result.status === 'failed' && result.assertionResults.length === 0) return [`${file(result.name)}: ${firstLine(result.message)}`];
    return result.assertionResults
      .filter((test) => test.status === 'failed')
      .map((test) => {
        const took = typeof test.duration === 'number' ? ` (${Math.round(test.duration)} ms)` : '';
        return `${[file(result.name), ...test.ancestorTitles, test.title].join(' › ')}${took}: ${firstLine(test.failureMessages?.[0])}`;
      });
  });
}
