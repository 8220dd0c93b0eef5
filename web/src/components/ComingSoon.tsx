import Box from '@cloudscape-design/components/box';
import Container from '@cloudscape-design/components/container';

export const COMING_SOON = 'This page is coming in a later release.';

/** The plain placeholder for screens that later issues build: no fake data. */
export function ComingSoon({ detail }: { detail?: string }) {
  return (
    <Container>
      <Box textAlign="center" padding={{ vertical: 'xxl' }} color="text-body-secondary">
        <Box variant="p" fontWeight="bold" color="inherit">
          {COMING_SOON}
        </Box>
        {detail && (
          <Box variant="p" color="inherit">
            {detail}
          </Box>
        )}
      </Box>
    </Container>
  );
}
