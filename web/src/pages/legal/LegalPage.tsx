import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import TextContent from '@cloudscape-design/components/text-content';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import styles from '../../components/layout.module.css';
import { PublicFooter } from '../../components/PublicFooter';
import { useDocumentTitle } from '../../components/useDocumentTitle';

export function LegalPage({ title, summary, children }: { title: string; summary: string; children: ReactNode }) {
  const navigate = useNavigate();
  useDocumentTitle(title);
  return (
    <div className={styles.page}>
      <main className={styles.grow}>
        <SpaceBetween size="l">
          <Box>
            <Button iconName="arrow-left" onClick={() => void navigate('/')}>
              Back to Home
            </Button>
          </Box>
          <Container
            header={
              <Header variant="h1" description={summary}>
                {title}
              </Header>
            }
          >
            <TextContent>{children}</TextContent>
          </Container>
        </SpaceBetween>
      </main>
      <PublicFooter />
    </div>
  );
}

export function Mail({ to }: { to: string }) {
  return <a href={`mailto:${to}`}>{to}</a>;
}
