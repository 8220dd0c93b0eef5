import { PageShell } from './PageShell';

/** Dashboard sections that later issues build: the spec's title and a plain 'coming later' state. */

export function AnalyticsPage() {
  return <PageShell title="Analytics" description="Opens, clicks and unsubscribes across your campaigns." />;
}
