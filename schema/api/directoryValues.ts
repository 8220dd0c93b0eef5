/** The directory's limits, free of zod (the contacts rules read them in Lambdas that load no schema at start). */
import { planOf } from '../plans';

/** How many directory entries a user may add to their contacts in total (spec §6, §9), as the plan table says. */
export const directoryAdditionsLimits = { free: planOf('free').directoryAdditions, paid: planOf('pro').directoryAdditions } as const;
