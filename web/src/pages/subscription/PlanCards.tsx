import Badge from '@cloudscape-design/components/badge';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import Icon from '@cloudscape-design/components/icon';
import SpaceBetween from '@cloudscape-design/components/space-between';
import type { Tier } from '../../../../schema/api/profile';
import { plans, type PaidTier } from '../../../../schema/plans';
import layout from '../../components/layout.module.css';
import { planCard } from '../../lib/planCard';
import { planAction } from './subscriptionView';
import styles from './subscription.module.css';

/** Where the page is sending the browser, while it asks the server for the address. */
export type Redirect = PaidTier | 'portal';

interface PlanCardsProps {
  currentTier: Tier;
  redirecting: Redirect | null;
  onUpgrade: (tier: PaidTier) => void;
  onOpenPortal: () => void;
}

/** 'Choose Your Plan': a card per plan of schema/plans.ts with its action (spec §2, §4 Plan card actions). */
export function PlanCards({ currentTier, redirecting, onUpgrade, onOpenPortal }: PlanCardsProps) {
  const busy = redirecting !== null;
  return (
    <SpaceBetween size="m">
      <Header variant="h2" description="Pick the plan that fits how much you pitch.">
        Choose Your Plan
      </Header>
      <ColumnLayout columns={3} minColumnWidth={240}>
        {plans.map((plan) => {
          const card = planCard(plan);
          const action = planAction(plan.tier, currentTier);
          const current = action.kind === 'current';
          let button;
          if (action.kind === 'current') {
            button = (
              <Button fullWidth disabled>
                Current Plan
              </Button>
            );
          } else if (action.kind === 'cancel') {
            button = (
              <Button fullWidth loading={redirecting === 'portal'} disabled={busy} onClick={onOpenPortal}>
                Cancel Subscription
              </Button>
            );
          } else {
            const { tier } = action;
            button = (
              <Button
                fullWidth
                variant={card.popular ? 'primary' : 'normal'}
                loading={redirecting === tier}
                loadingText={`Opening checkout for the ${card.name} plan`}
                disabled={busy}
                onClick={() => onUpgrade(tier)}
              >
                Upgrade to {card.name}
              </Button>
            );
          }
          return (
            <section key={plan.tier} aria-label={`${card.name} plan`} className={styles.fill}>
              <Container
                fitHeight
                header={
                  <Header
                    variant="h3"
                    description={
                      card.popular || current ? (
                        <>
                          {card.popular && <Badge color="blue">Most Popular</Badge>} {current && <Badge color="green">Current Plan</Badge>}
                        </>
                      ) : undefined
                    }
                  >
                    {card.name}
                  </Header>
                }
                footer={button}
              >
                <SpaceBetween size="s">
                  <div>
                    <Box variant="awsui-value-large" tagOverride="span">
                      {card.price}
                    </Box>{' '}
                    <Box variant="span" color="text-body-secondary">
                      {card.period}
                    </Box>
                  </div>
                  <Box fontWeight="bold">{card.summary}</Box>
                  <ul className={styles.planList}>
                    {card.features.map((feature) => (
                      <li key={feature}>
                        <Icon name="check" variant="success" />
                        <span className={layout.visuallyHidden}>Included: </span>
                        {feature}
                      </li>
                    ))}
                    {card.limitations.map((limitation) => (
                      <li key={limitation} className={styles.limitation}>
                        <Icon name="close" variant="subtle" />
                        <span className={layout.visuallyHidden}>Limitation: </span>
                        {limitation}
                      </li>
                    ))}
                  </ul>
                </SpaceBetween>
              </Container>
            </section>
          );
        })}
      </ColumnLayout>
    </SpaceBetween>
  );
}
