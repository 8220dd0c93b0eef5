import Box from '@cloudscape-design/components/box';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { SandboxedHtml } from '../../../components/SandboxedHtml';

/**
 * The 'Email Preview' of HTML mode: the subject and HTML as the server stored them, after sanitizing,
 * so anything it removed (a script, a form) is visibly gone. Shown in a sandbox: nothing in it runs.
 */
export function SavedHtmlPreview({ email }: { email: { subject: string; body: string } }) {
  return (
    <Container
      header={
        <Header variant="h2" description="What was saved for this campaign. Placeholders are filled in for each contact when sending.">
          Email Preview
        </Header>
      }
    >
      <SpaceBetween size="s">
        <div>
          <Box variant="awsui-key-label">Subject</Box>
          <div style={{ overflowWrap: 'anywhere' }}>{email.subject}</div>
        </div>
        <SandboxedHtml title="Email preview" html={email.body} />
      </SpaceBetween>
    </Container>
  );
}
