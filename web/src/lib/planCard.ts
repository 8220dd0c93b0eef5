import { monthlyEmailsLabel, priceLabel, type Plan } from '../../../schema/plans';

/** What a pricing card prints for a plan of schema/plans.ts: the landing page's cards and the Subscription page's. */
export interface PlanCard {
  name: string;
  /** '$0', '$29'. */
  price: string;
  period: Plan['period'];
  /** The monthly emails: '50 emails per month', 'Unlimited emails'. */
  summary: string;
  /** The plan's features, less the one the summary already says. */
  features: readonly string[];
  limitations: readonly string[];
  popular: boolean;
}

export function planCard(plan: Plan): PlanCard {
  const summary = monthlyEmailsLabel(plan);
  return {
    name: plan.name,
    price: priceLabel(plan),
    period: plan.period,
    summary,
    features: plan.features.filter((feature) => feature !== summary),
    limitations: plan.limitations,
    popular: plan.popular,
  };
}
