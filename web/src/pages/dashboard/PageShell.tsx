import ContentLayout from '@cloudscape-design/components/content-layout';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import type { ReactNode } from 'react';
import { ComingSoon } from '../../components/ComingSoon';
import { useDocumentTitle } from '../../components/useDocumentTitle';

export function PageShell({ title, description, actions, children }: { title: string; description?: string; actions?: ReactNode; children?: ReactNode }) {
  useDocumentTitle(title);
  return (
    <ContentLayout
      header={
        <Header variant="h1" description={description} actions={actions}>
          {title}
        </Header>
      }
    >
      <SpaceBetween size="l">{children ?? <ComingSoon />}</SpaceBetween>
    </ContentLayout>
  );
}
