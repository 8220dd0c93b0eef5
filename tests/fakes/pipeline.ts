/**
 * The sending pipeline driven tick by tick on DynamoDB Local (DESIGN §4; the pipeline design), for the
 * seeded fault-injection suite (tests/integration/pipeline-faults.test.ts) and the sending benchmark
 * (bench/sending.ts). The real dispatcher, MemoryFifoQueue and sender handler, the real stores, and:
 * - a fake clock the driver moves (dispatcher runs at each simulated minute, like the local ticker);
 * - a seeded PRNG (mulberry32) and hash-seeded streams, so a run's choices replay from its seed;
 * - a fault-injecting document client (a Proxy on `send`): a simulated Lambda crash before or after a
 *   chosen command (the invocation dies: nothing of it is deleted from the queue, SQS redelivers after
 *   the visibility timeout), a DynamoDB throttling error, a TransactionConflict cancellation of a sending
 *   transaction (as DynamoDB cancels one that met another transaction on an item), and a count of
 *   requests per command; which request is the claim or the record it reads from the sending store's
 *   step tag (`sendingStepOf`);
 * - a recording mailer that can answer 429 / 5xx / daily limit / invalid_grant / rejected, or throw
 *   after (or before) the email left (the outcome is unknown to the sender);
 * - opens and clicks through the real tracking store, plays, listens and answers through the real listen
 *   store, on the emails delivered, racing the sends (they move the same STATS, day, campaign and
 *   recipient items);
 * - an event log (claims, mailer calls, pauses, resumes, unsubscribes, crashes, failed ticks) in one
 *   sequence, which `invariantViolations` checks DESIGN §4's invariants against, with what the table
 *   holds at the end.
 * Nothing here depends on vitest: the benchmark uses it on a table of its own.
 */
import { queryAll } from '../../lambdas/adapters/dynamodb/query';
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { ProvisionedThroughputExceededException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchGetAll, batchWriteAll, type WriteRequest } from '../../lambdas/adapters/dynamodb/batch';
import type { SQSEvent } from 'aws-lambda';
import { DynamoCampaignStore } from '../../lambdas/adapters/dynamodb/campaignStore';
import { DynamoMailboxStore } from '../../lambdas/adapters/dynamodb/mailboxStore';
import { DynamoSendingCursorStore } from '../../lambdas/adapters/dynamodb/sending/cursor';
import { DynamoSendQueueStore } from '../../lambdas/adapters/dynamodb/sending/queue';
import { DynamoSenderStore } from '../../lambdas/adapters/dynamodb/sending/sender';
import { sendingStepOf, type SendingStep } from '../../lambdas/adapters/dynamodb/sending/transaction';
import { readCounters } from '../../lambdas/adapters/dynamodb/countersBackfill';
import { DynamoListenStore } from '../../lambdas/adapters/dynamodb/listenStore';
import { DynamoTrackingStore } from '../../lambdas/adapters/dynamodb/trackingStore';
import { DynamoUnsubscribeStore } from '../../lambdas/adapters/dynamodb/unsubscribeStore';
import { DynamoWrittenEmailStore } from '../../lambdas/adapters/dynamodb/writtenEmailStore';
import { MemoryFifoQueue, type ReceivedMessage } from '../../lambdas/adapters/local-queue/memoryFifoQueue';
import { LocalWriter } from '../../lambdas/adapters/local-writer/localWriter';
import { ulidGenerator } from '../../lambdas/adapters/ulid';
import { addressId } from '../../lambdas/core/contacts';
import {
  countersFromLogs,
  DAY_COUNTERS,
  EMAIL_COUNTERS,
  EVENT_COUNTERS,
  type CountersFromLogs,
  type LoggedEmail,
  type LoggedUnsubscribe,
  type StoredCampaign,
} from '../../lambdas/core/counters';
import { isEmailToken, newEmailToken } from '../../lambdas/core/emailToken';
import { MailerError, type MailerFailure } from '../../lambdas/core/errors';
import { toFollowUpItem } from '../../lambdas/adapters/dynamodb/sending/followUps';
import { FOLLOW_UP_DAY_MS } from '../../lambdas/core/followUps';
import { dueShard, headOf, MAX_ATTEMPTS, pitchKey } from '../../lambdas/core/sender';
import { firstEmailOf, replySubject } from '../../lambdas/core/thread';
import { pacificDate, pacificMonth } from '../../lambdas/core/sendingWindow';
import type { DueCursorWithHead } from '../../lambdas/core/dispatch';
import type {
  EmailThreadRef,
  EmailToken,
  FollowUpItem,
  FollowUpOutcome,
  Mailer,
  OutgoingEmail,
  RecipientRecord,
  SecretBox,
  SentMessage,
  SenderQueueEntry,
  SendingCursorStore,
  StoredMailbox,
} from '../../lambdas/ports';
import { makeHandler as makeDispatcher } from '../../lambdas/workers/dispatcher';
import { makeHandler as makeSender } from '../../lambdas/workers/sender';
import { LOCAL_BATCH_SIZE, LOCAL_MAX_RECEIVE_COUNT, LOCAL_VISIBILITY_TIMEOUT_MS, sqsEvent } from '../../lib/local/ticker';
import type { Campaign, CampaignSendWindow } from '../../schema/api/campaigns';
import type { Contact } from '../../schema/api/contacts';
import type { Tier } from '../../schema/api/profile';
import { planOf } from '../../schema/plans';
import { NO_FOLLOW_UPS, type FollowUps } from '../../schema/api/followUpValues';
import { listenAnswers, listenMilestones, type ListenAnswer } from '../../schema/api/listenValues';
import { SEND_BATCH_SIZE } from '../../schema/api/sending';
import { indexes, key } from '../../schema/table';
import { buildContact, buildDraftContent, buildProfile } from './builders';
import { seededRandom } from '../../lambdas/core/seededRandom';

export const MINUTE_MS = 60_000;
export const PIPELINE_APP_URL = 'https://app.trackpitch.test';

// =====================================================================================================
// Seeded randomness.

export interface Rng {
  /** [0, 1) */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** An integer in [lo, hi]. */
  between(lo: number, hi: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
}

/** mulberry32: a tiny, good-enough 32-bit PRNG; the same seed gives the same stream. */
export function mulberry32(seed: number): Rng {
  const next = seededRandom(seed);
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, between: (lo, hi) => lo + int(hi - lo + 1), chance: (p) => next() < p, pick: (items) => items[int(items.length)]! };
}

/**
 * A stream seeded by what a choice is about (the run's seed, a user, a position, an attempt), so the
 * choice does not depend on the order in which concurrent work asked for it.
 */
export function rngFor(...parts: (string | number)[]): Rng {
  return mulberry32(createHash('sha256').update(parts.join('\u0000')).digest().readUInt32LE(0));
}

/** Email tokens from a hash stream: reproducible, and of the shape every token has (newEmailToken's). */
export function seededTokens(tag: string): () => string {
  let n = 0;
  return () => newEmailToken((size) => createHash('sha256').update(`${tag}:${++n}`).digest().subarray(0, size));
}

// =====================================================================================================
// The clock.

export class FakeClock {
  private at: number;
  constructor(start: Date) {
    this.at = start.getTime();
  }
  now(): Date {
    return new Date(this.at);
  }
  set(at: Date | number): void {
    this.at = typeof at === 'number' ? at : at.getTime();
  }
  advance(ms: number): void {
    this.at += ms;
  }
}

const floorMinute = (ms: number) => Math.floor(ms / MINUTE_MS) * MINUTE_MS;
const ceilMinute = (ms: number) => Math.ceil(ms / MINUTE_MS) * MINUTE_MS;

// =====================================================================================================
// Invocations and the event log.

/** One sender Lambda invocation (one SQS batch). A crash kills all of it. */
export interface Invocation {
  id: number;
  /** Sequence number of its start in the event log. */
  startSeq: number;
  crashed: boolean;
}

const currentInvocation = new AsyncLocalStorage<Invocation>();

/** A simulated Lambda crash (the process died): not a DynamoDB error, nothing after it runs. */
export class SimulatedCrash extends Error {
  constructor(where: string) {
    super(`simulated crash ${where}`);
    this.name = 'SimulatedCrash';
  }
}

export type MailerFault = MailerFailure | 'unknown_after_send' | 'unknown_before_send';

export interface MailerCall {
  seq: number;
  at: Date;
  invocation: number | undefined;
  userId: string;
  campaignId: string;
  position: number;
  /** 0: the first email; 1, 2: a follow-up step (its meta's). */
  step: number;
  to: string;
  messageId: string;
  subject: string;
  /** The thread a follow-up step asked for (its first email's), as the mailer was handed it. */
  replyTo: EmailThreadRef | undefined;
  token: string | null;
  /** What the fake provider did instead of accepting (undefined: accepted). */
  fault: MailerFault | 'crashed' | undefined;
  /** The email left: accepted, or thrown at after it left (the sender cannot know). */
  delivered: boolean;
}

export type ClaimPhase = 'start' | 'ok' | 'refused' | 'error';
export type ActionKind = 'pause' | 'resume' | 'unsubscribe' | 'disconnect' | 'connect' | 'queue' | StopKind;
/** The recipient's and the artist's acts that stop a follow-up step (issue 27 §1), as the world logs them. */
export type StopKind = 'answer' | 'listen' | 'click' | 'reply';
/** What a record transaction was (its step tag's outcome). */
export type RecordKind = 'sent' | 'retry' | 'failed' | 'daily_limit' | 'auth' | 'unknown';

export type PipelineEvent = { seq: number } & (
  | { kind: 'invocation'; invocation: number }
  | {
      kind: 'claim';
      phase: ClaimPhase;
      invocation: number | undefined;
      userId: string;
      campaignId: string;
      position: number;
      /** 0: the first email's claim; n: follow-up step n's. */
      followUp: number;
      at: Date;
    }
  | {
      kind: 'record';
      phase: 'ok' | 'refused' | 'error';
      record: RecordKind;
      invocation: number | undefined;
      userId: string;
      campaignId: string;
      position: number;
      followUp: number;
      at: Date;
    }
  | { kind: 'mail'; call: MailerCall }
  | {
      kind: 'action';
      action: ActionKind;
      phase: 'start' | 'end';
      userId: string;
      campaignId?: string;
      /** The email a stop act was on (its first email's position). */
      position?: number;
      email?: string;
      /** A stop act's track (the PITCHED item's key) and, for an answer, the answer. */
      trackKey?: string;
      answer?: string;
      outcome?: string;
      concurrent?: boolean;
    }
  | { kind: 'crash'; invocation: number; where: string }
  /** A tick the handler reported failed (batchItemFailures) in an invocation that did not crash. */
  | { kind: 'tick-failed'; invocation: number; userId: string }
  | {
      kind: 'fault';
      fault: DbFault | 'conflict';
      step: Step;
      sendingStep: SendingStep | undefined;
      /** A record's outcome. */
      record: RecordKind | undefined;
      /** The follow-up step a step's transaction was about. */
      followUp: number | undefined;
      invocation: number | undefined;
      userId: string | undefined;
    }
);

/** Distributes Omit over the union (a plain Omit of a union keeps only the common keys). */
type WithoutSeq<T> = T extends unknown ? Omit<T, 'seq'> : never;

export class EventLog {
  readonly events: PipelineEvent[] = [];
  add(event: WithoutSeq<PipelineEvent>): number {
    const seq = this.events.length;
    this.events.push({ ...event, seq });
    return seq;
  }
  get next(): number {
    return this.events.length;
  }
}

// =====================================================================================================
// The fault-injecting document client.

export type Step = 'read' | 'claim' | 'record' | 'write' | 'query' | 'other';

export interface CommandInfo {
  /** The command's class (BatchGetCommand, TransactWriteCommand, …). */
  name: string;
  step: Step;
  /** The sending store's step (SENDING_STEPS) when the command is one of its transactions. */
  sendingStep?: SendingStep;
  userId: string | undefined;
  campaignId: string | undefined;
  position: number | undefined;
  record?: RecordKind;
  /** A follow-up step's transaction: the step (1, 2). */
  followUpStep?: number;
}

type Command = { constructor: { name: string }; input: unknown };

const USER_PK = /"PK":"USER#([^"#]+)"/;

/**
 * What a command is in the pipeline's terms: the claim, the record (and its outcome) or another write,
 * by the tag the sending store attaches to each transaction (`sendingStepOf`), never by its expression
 * text; any other command by its class: a read, a query, a write.
 */
export function describeCommand(command: Command): CommandInfo {
  const name = command.constructor.name;
  const tag = sendingStepOf(command);
  if (tag) {
    // A follow-up step's claim and record are claims and records like a first email's.
    const step: Step =
      tag.step === 'claim' || tag.step === 'claimFollowUp' ? 'claim' : tag.step === 'record' || tag.step === 'recordFollowUp' ? 'record' : 'write';
    return {
      name,
      step,
      sendingStep: tag.step,
      userId: tag.userId,
      campaignId: tag.campaignId,
      position: tag.position,
      ...(tag.record ? { record: tag.record } : {}),
      ...(tag.followUpStep ? { followUpStep: tag.followUpStep } : {}),
    };
  }
  const userId = USER_PK.exec(JSON.stringify(command.input ?? {}))?.[1];
  const step: Step = name === 'BatchGetCommand' || name === 'GetCommand' ? 'read' : name === 'QueryCommand' ? 'query' : 'write';
  return { name, step, userId, campaignId: undefined, position: undefined };
}

export type DbFault = 'crash-before' | 'crash-after' | 'throttle';

/** What `counts` holds, beside the commands, for the TransactionConflict cancellations DynamoDB itself returned. */
export const ENGINE_CONFLICTS = 'TransactionConflict from the engine';

export interface FaultyDbOptions {
  log?: EventLog;
  /** The fault for this command in this invocation, if any (only inside a sender invocation). */
  fault?: (info: CommandInfo, invocation: Invocation) => DbFault | undefined;
  /**
   * Whether this try of a sending transaction (`info.sendingStep` set) is cancelled by a TransactionConflict
   * (inside a sender invocation or not): nothing of it is written, as when it meets another transaction.
   */
  conflict?: (info: CommandInfo) => boolean;
  /** Requests per command name (every request, faulted or not). */
  counts?: Map<string, number>;
  /** Runs before a sending transaction of a sender invocation goes (a stop event between the read and the claim). */
  beforeTransaction?: (info: CommandInfo) => Promise<void>;
  /** The simulated clock (the log's times). */
  clock?: { now(): Date };
}

/**
 * The document client as the sender sees it: every `send` goes through the fault plan. Once an
 * invocation crashed, every later request of it throws (the process is gone).
 */
export function faultyDocumentClient(db: DynamoDBDocumentClient, options: FaultyDbOptions): DynamoDBDocumentClient {
  const { log, counts } = options;
  const now = () => options.clock?.now() ?? new Date();
  const send = async (command: Command, ...rest: unknown[]) => {
    const info = describeCommand(command);
    counts?.set(info.name, (counts.get(info.name) ?? 0) + 1);
    const invocation = currentInvocation.getStore();
    if (invocation?.crashed) throw new SimulatedCrash(`(already crashed) at ${info.step}`);
    if (invocation && info.sendingStep) await options.beforeTransaction?.(info);
    const fault = invocation && options.fault ? options.fault(info, invocation) : undefined;
    // Logged where it is thrown: a fault planned but never injected is not counted as one.
    const inject = <E extends Error>(error: E, kind: DbFault | 'conflict' = fault!): E => {
      log?.add({
        kind: 'fault',
        fault: kind,
        step: info.step,
        sendingStep: info.sendingStep,
        record: info.record,
        followUp: info.followUpStep,
        invocation: invocation?.id,
        userId: info.userId,
      });
      return error;
    };
    const crash = (where: string) => {
      const error = inject(new SimulatedCrash(`${where} ${info.step}`));
      invocation!.crashed = true;
      log?.add({ kind: 'crash', invocation: invocation!.id, where: `${where} ${info.step} (${info.name})` });
      return error;
    };
    if (fault === 'crash-before') throw crash('before');
    if (fault === 'throttle') throw inject(new ProvisionedThroughputExceededException({ message: 'Simulated throttling', $metadata: {} }));
    if (info.sendingStep && options.conflict?.(info)) throw inject(conflictOf(command, info), 'conflict');
    const tracked = (info.step === 'claim' || info.step === 'record') && info.userId !== undefined && info.campaignId !== undefined;
    if (tracked && info.step === 'claim') {
      log?.add({
        kind: 'claim',
        phase: 'start',
        invocation: invocation?.id,
        userId: info.userId!,
        campaignId: info.campaignId!,
        position: info.position!,
        followUp: info.followUpStep ?? 0,
        at: now(),
      });
    }
    let result: unknown;
    let error: unknown;
    try {
      result = await (db.send as (c: Command, ...r: unknown[]) => Promise<unknown>).call(db, command, ...rest);
    } catch (caught) {
      error = caught;
      if (caught instanceof TransactionCanceledException && caught.CancellationReasons?.some((reason) => reason.Code === 'TransactionConflict'))
        counts?.set(ENGINE_CONFLICTS, (counts.get(ENGINE_CONFLICTS) ?? 0) + 1);
    }
    if (tracked) {
      const phase = error === undefined ? 'ok' : error instanceof TransactionCanceledException ? 'refused' : 'error';
      const base = {
        invocation: invocation?.id,
        userId: info.userId!,
        campaignId: info.campaignId!,
        position: info.position!,
        followUp: info.followUpStep ?? 0,
        at: now(),
      };
      if (info.step === 'claim') log?.add({ kind: 'claim', phase, ...base });
      else log?.add({ kind: 'record', phase, record: info.record ?? 'unknown', ...base });
    }
    if (fault === 'crash-after') throw crash('after');
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows what the client threw, as it was
    if (error !== undefined) throw error;
    return result;
  };
  return new Proxy(db, {
    get(target, property) {
      if (property === 'send') return send;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * The cancellation DynamoDB answers a transaction that met another one on an item: one reason per item,
 * 'TransactionConflict' for one of them (which one is drawn from what the try is about), 'None' for the rest.
 */
function conflictOf(command: Command, info: CommandInfo): TransactionCanceledException {
  const items = (command.input as { TransactItems?: unknown[] } | undefined)?.TransactItems?.length ?? 1;
  const busy = rngFor(
    info.sendingStep ?? info.name,
    info.userId ?? '',
    info.campaignId ?? '',
    info.position ?? -1,
    info.record ?? '',
    ...(info.followUpStep ? [info.followUpStep] : []),
  ).int(items);
  const codes = Array.from({ length: items }, (_, i) => (i === busy ? 'TransactionConflict' : 'None'));
  return new TransactionCanceledException({
    message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${codes.join(', ')}]`,
    $metadata: { httpStatusCode: 400 },
    CancellationReasons: codes.map((Code) => (Code === 'None' ? { Code } : { Code, Message: 'Transaction is ongoing for the item' })),
  });
}

/** A document client that counts every request by command name (a middleware: the benchmark's meter). */
export function countRequests(db: DynamoDBDocumentClient, counts: Map<string, number>): void {
  db.middlewareStack.add(
    (next, context) => async (args) => {
      const name = context.commandName ?? 'unknown';
      counts.set(name, (counts.get(name) ?? 0) + 1);
      return next(args);
    },
    { step: 'initialize', name: 'pipelineRequestCounter' },
  );
}

// =====================================================================================================
// The mailer.

export interface MailerAttempt {
  userId: string;
  campaignId: string;
  position: number;
  /** 0: the first email; n: follow-up step n. */
  step: number;
  /** 1 for the first call for this (campaign, position, step). */
  attempt: number;
}

/**
 * Records every call (time, user, campaign, position) and answers as the plan says: accept, a
 * MailerError of a kind, or a plain throw after (or before) the email left. `script` queues answers
 * for a user's next calls (named scenarios); `plan` decides the rest (seeded runs).
 */
export class FaultyMailer implements Mailer {
  readonly calls: MailerCall[] = [];
  private readonly scripted = new Map<string, (MailerFault | 'accept')[]>();
  private readonly attempts = new Map<string, number>();

  constructor(
    private readonly clock: { now(): Date },
    private readonly log: EventLog,
    private readonly plan?: (attempt: MailerAttempt) => MailerFault | undefined,
  ) {}

  /** Runs inside a call, before it answers (a scenario places a user action between the claim and the record). */
  during: ((attempt: MailerAttempt) => Promise<void>) | undefined;

  /** The user's next calls answer these, in order ('accept' for a normal send). */
  script(userId: string, ...answers: (MailerFault | 'accept')[]): void {
    this.scripted.set(userId, [...(this.scripted.get(userId) ?? []), ...answers]);
  }

  get delivered(): MailerCall[] {
    return this.calls.filter((call) => call.delivered);
  }

  async send(email: OutgoingEmail): Promise<SentMessage> {
    const { userId, campaignId, position, step = 0 } = email.meta;
    const slot = `${campaignId}#${position}#${step}`;
    const attempt = (this.attempts.get(slot) ?? 0) + 1;
    this.attempts.set(slot, attempt);
    const invocation = currentInvocation.getStore();
    let fault: MailerCall['fault'];
    if (invocation?.crashed) fault = 'crashed';
    else {
      const queued = this.scripted.get(userId);
      const next = queued && queued.length > 0 ? queued.shift() : this.plan?.({ userId, campaignId, position, step, attempt });
      fault = next === 'accept' ? undefined : next;
    }
    if (fault !== 'crashed') await this.during?.({ userId, campaignId, position, step, attempt });
    const delivered = fault === undefined || fault === 'unknown_after_send';
    const token = tokenOf(email.listUnsubscribeUrl);
    const call: MailerCall = {
      seq: -1,
      at: this.clock.now(),
      invocation: invocation?.id,
      userId,
      campaignId,
      position,
      step,
      to: email.to.email,
      messageId: email.messageId,
      subject: email.subject,
      replyTo: email.replyTo,
      token,
      fault,
      delivered,
    };
    call.seq = this.log.add({ kind: 'mail', call });
    this.calls.push(call);
    switch (fault) {
      case undefined:
        return providerAnswer(email, `provider-${call.seq}`);
      case 'crashed':
        throw new SimulatedCrash('in the mailer');
      case 'unknown_after_send':
        throw new Error('socket hang up after the request was written');
      case 'unknown_before_send':
        throw new Error('connect ETIMEDOUT');
      default:
        throw new MailerError(fault, mailerMessages[fault]);
    }
  }
}

const mailerMessages: Record<MailerFailure, string> = {
  rate_limited: 'Too many requests (429)',
  transient: 'Backend error (503)',
  daily_limit: 'Daily user sending limit exceeded',
  auth: 'invalid_grant',
  rejected: 'Invalid To header',
};

function tokenOf(url: string): string | null {
  try {
    return new URL(url).searchParams.get('token');
  } catch {
    return null;
  }
}

/** As Gmail answers: the message's id, and the thread a reply asked for, else a thread of its own (a new thread's id is its first message's). */
export const providerAnswer = (email: OutgoingEmail, id: string): SentMessage => ({ providerMessageId: id, threadId: email.replyTo?.threadId ?? id });

/** A mailer that only counts and times what it is handed (the benchmark's). */
export class NoopMailer implements Mailer {
  readonly sent: { userId: string; position: number; at: number }[] = [];
  constructor(private readonly clock: { now(): Date }) {}
  send(email: OutgoingEmail): Promise<SentMessage> {
    this.sent.push({ userId: email.meta.userId, position: email.meta.position, at: this.clock.now().getTime() });
    return Promise.resolve(providerAnswer(email, `noop-${this.sent.length}`));
  }
}

/** Seals by prefixing with the user (opening needs the same context), as the sender expects of a SecretBox. */
export const fakeSecretBox: SecretBox = {
  seal: (plaintext, context) => Promise.resolve(`sealed:${context.userId}:${plaintext}`),
  open: (sealed, context) => {
    const prefix = `sealed:${context.userId}:`;
    if (!sealed.startsWith(prefix)) return Promise.reject(new Error('secret opened with another context'));
    return Promise.resolve(sealed.slice(prefix.length));
  },
};

// =====================================================================================================
// The world: users, campaigns, the dispatcher, the FIFO, the sender, and the driver.

export interface PipelineUser {
  userId: string;
  index: number;
  dailyLimit: number;
  /** null: unlimited (Label plan). */
  monthlyLimit: number | null;
  /** Counters already used before the run (DAY / MONTH items written at setup). */
  preDay: Map<string, number>;
  preMonth: Map<string, number>;
  campaigns: PipelineCampaign[];
}

export interface PipelineCampaign {
  userId: string;
  campaign: Campaign;
  contacts: Contact[];
  /** Its follow-up steps (none: NO_FOLLOW_UPS), as its first batch set them. */
  followUps: FollowUps;
  /** Its track's key (pitchKey): 'Not for us' to it stops its steps in every campaign. */
  trackKey: string;
}

export interface UserOptions {
  dailyLimit?: number;
  /** The plan, whose monthly limit the sender reads (planOf(tier): Free 50, Pro 500, Label none). */
  tier?: Tier;
  /** Already counted today / this month (Pacific) at the clock's time. */
  sentToday?: number;
  usedThisMonth?: number;
  /** The artist's time zone (the profile's; the fallback for a recipient without one). */
  timeZone?: string;
}

export interface PipelineOptions {
  /** The plain client: setup, user actions, the final reads. */
  db: DynamoDBDocumentClient;
  tableName: string;
  clock: FakeClock;
  /** What run ids start with (unique per run, so runs on a shared table never meet). */
  tag: string;
  intervalMs?: number;
  appUrl?: string;
  /** Default: a FaultyMailer on this world's log, answering as `mailerPlan` says. */
  mailer?: Mailer;
  mailerPlan?: (attempt: MailerAttempt) => MailerFault | undefined;
  /** The sender's (and dispatcher's) client: default a faulty client over `db` with no faults. */
  senderDb?: DynamoDBDocumentClient;
  dispatcherDb?: DynamoDBDocumentClient;
  dbFault?: FaultyDbOptions['fault'];
  /** TransactionConflict cancellations of sending transactions: the sender's, and the send flow's (queue, pause, resume). */
  conflict?: FaultyDbOptions['conflict'];
  /** Email tokens (default: seeded from the tag). */
  tokens?: () => string;
  /**
   * Where the dispatcher finds due cursors: 'index' (default), the real DUE index query (every cursor
   * of the table); 'own', this world's cursors read by key (a shared table holds other runs' cursors,
   * and one read per minute instead of a query per shard), each checked to be in the DUE index exactly
   * as its due_at says (`dueIndexProblems`), so an index the real dispatcher would miss is still caught.
   */
  cursorsFrom?: 'index' | 'own';
  visibilityTimeoutMs?: number;
  /** How long a follow-up 'day' lasts (FOLLOW_UP_DAY_SECONDS): short, so steps fall due within a run. */
  followUpDayMs?: number;
  /** Runs before each sending transaction of a sender invocation (faultyDocumentClient's). */
  beforeTransaction?: FaultyDbOptions['beforeTransaction'];
}

/** How one delivery pass treats the messages it hands out (decided by the suite). */
export interface DeliveryChoices {
  /** Hand the same batch to a second invocation at the same time (an at-least-once duplicate). */
  duplicateConcurrently?: boolean;
  /** Receipts whose delete is lost: processed, yet delivered again after the visibility timeout. */
  loseDelete?: ReadonlySet<string>;
}

export interface DriveHooks {
  /** Before each dispatcher run: user actions; what it returns runs at the same time as the deliveries (a race). */
  atMinute?: (at: Date, firing: number) => Promise<void> | Promise<(() => Promise<unknown>) | undefined>;
  /** Fire the scheduler a second time this minute (with that offset from the first, ms). */
  secondFiring?: () => number | undefined;
  /** How long after the dispatcher run the messages are handled (ms). */
  jitterMs?: () => number;
  deliveryChoices?: (messages: ReceivedMessage[]) => DeliveryChoices;
  /** A time the suite wants a minute fired at (a planned action), if any. */
  wakeAt?: () => number | undefined;
}

type CursorItem = Record<string, unknown> & { queue?: Record<string, SenderQueueEntry>; due_at?: string; last_slot?: string };

export class PipelineWorld {
  readonly log = new EventLog();
  readonly clock: FakeClock;
  readonly db: DynamoDBDocumentClient;
  readonly tableName: string;
  readonly intervalMs: number;
  readonly followUpDayMs: number;
  readonly appUrl: string;
  readonly mailer: Mailer;
  readonly fifo: MemoryFifoQueue;
  readonly users: PipelineUser[] = [];
  readonly dbCounts = new Map<string, number>();
  readonly sendQueue: DynamoSendQueueStore;
  readonly campaigns: DynamoCampaignStore;
  readonly mailboxes: DynamoMailboxStore;
  readonly unsubscribes: DynamoUnsubscribeStore;
  readonly tracking: DynamoTrackingStore;
  readonly listens: DynamoListenStore;
  readonly senderDb: DynamoDBDocumentClient;
  readonly stats = { firings: 0, invocations: 0, crashedInvocations: 0, duplicateInvocations: 0, lostDeletes: 0, secondFirings: 0, dispatched: 0 };
  private readonly userIds = new Set<string>();
  /** Cursors whose DUE index attributes disagree with their due_at (the real dispatcher would miss or repeat them). */
  readonly dueIndexProblems: string[] = [];
  /** This world's cursors as last read, while nothing has changed them (the next dispatcher run uses it). */
  private cursorRead: Promise<Map<string, CursorItem | undefined>> | undefined;
  private readonly handler: (event: SQSEvent) => Promise<{ batchItemFailures: { itemIdentifier: string }[] }>;
  private readonly dispatcher: ReturnType<typeof makeDispatcher>;
  private readonly visibilityTimeoutMs: number;
  private readonly redeliveries: number[] = [];
  private invocations = 0;
  private readonly tag: string;

  constructor(options: PipelineOptions) {
    this.clock = options.clock;
    this.db = options.db;
    this.tableName = options.tableName;
    this.tag = options.tag;
    this.intervalMs = options.intervalMs ?? MINUTE_MS;
    this.followUpDayMs = options.followUpDayMs ?? FOLLOW_UP_DAY_MS;
    this.appUrl = options.appUrl ?? PIPELINE_APP_URL;
    this.mailer = options.mailer ?? new FaultyMailer(this.clock, this.log, options.mailerPlan);
    this.visibilityTimeoutMs = options.visibilityTimeoutMs ?? LOCAL_VISIBILITY_TIMEOUT_MS;
    const conflict = options.conflict ? { conflict: options.conflict } : {};
    this.senderDb =
      options.senderDb ??
      faultyDocumentClient(options.db, {
        log: this.log,
        counts: this.dbCounts,
        clock: this.clock,
        ...(options.dbFault ? { fault: options.dbFault } : {}),
        ...(options.beforeTransaction ? { beforeTransaction: options.beforeTransaction } : {}),
        ...conflict,
      });
    const ids = ulidGenerator();
    this.campaigns = new DynamoCampaignStore(this.db, this.tableName, { ids });
    const sendFlowDb = options.conflict ? faultyDocumentClient(this.db, { log: this.log, clock: this.clock, ...conflict }) : this.db;
    this.sendQueue = new DynamoSendQueueStore(sendFlowDb, this.tableName, { intervalMs: this.intervalMs });
    this.mailboxes = new DynamoMailboxStore(this.db, this.tableName);
    this.unsubscribes = new DynamoUnsubscribeStore(this.db, this.tableName);
    this.tracking = new DynamoTrackingStore(this.db, this.tableName);
    this.listens = new DynamoListenStore(this.db, this.tableName);
    this.fifo = new MemoryFifoQueue({ clock: this.clock, visibilityTimeoutMs: this.visibilityTimeoutMs, maxReceiveCount: LOCAL_MAX_RECEIVE_COUNT });
    const cursors: SendingCursorStore =
      options.cursorsFrom === 'own'
        ? { listDue: (shard, now, limit) => this.listOwnDue(shard, now, limit) }
        : new DynamoSendingCursorStore(options.dispatcherDb ?? this.senderDb, this.tableName);
    this.dispatcher = makeDispatcher({ cursors, queue: this.fifo, clock: this.clock, intervalMs: this.intervalMs });
    this.handler = makeSender({
      store: new DynamoSenderStore(this.senderDb, this.tableName, { intervalMs: this.intervalMs }),
      mailer: this.mailer,
      clock: this.clock,
      secrets: fakeSecretBox,
      writer: new LocalWriter(),
      sanitizer: { sanitize: (html: string) => html },
      written: new DynamoWrittenEmailStore(this.senderDb, this.tableName),
      tokens: options.tokens ?? seededTokens(options.tag),
      appUrl: this.appUrl,
      intervalMs: this.intervalMs,
      followUpDayMs: this.followUpDayMs,
    });
  }

  get now(): Date {
    return this.clock.now();
  }

  /** The recording mailer (when the world made it). */
  get mail(): FaultyMailer {
    if (!(this.mailer instanceof FaultyMailer)) throw new Error('this world has another mailer');
    return this.mailer;
  }

  /** A campaign's name within the run (`u<i>c<j>`): what seeded choices key on (ids are random). */
  labelOf(campaignId: string): string {
    for (const user of this.users) {
      const j = user.campaigns.findIndex((c) => c.campaign.id === campaignId);
      if (j >= 0) return `u${user.index}c${j}`;
    }
    return campaignId;
  }

  /** The run's label of a user id (`u<i>`). */
  userLabel(userId: string): string {
    return userId.slice(this.tag.length + 1);
  }

  // ---- setup ------------------------------------------------------------------------------------

  /** A user with a profile, a connected mailbox, and counters already used (see addUsers). */
  async addUser(options: UserOptions = {}): Promise<PipelineUser> {
    return (await this.addUsers([options]))[0]!;
  }

  /**
   * Users with a profile, a connected mailbox (the MAILBOX item and the profile's gmail_* fields as
   * DynamoMailboxStore.connect writes them) and the DAY / MONTH counters already used, in batch writes.
   */
  async addUsers(list: readonly UserOptions[]): Promise<PipelineUser[]> {
    const now = this.now;
    const requests: WriteRequest[] = [];
    const added: PipelineUser[] = [];
    for (const options of list) {
      const index = this.users.length + added.length;
      const userId = `${this.tag}-u${index}`;
      const dailyLimit = options.dailyLimit ?? 500;
      const tier = options.tier ?? 'free';
      const mailbox = await this.mailboxFor(userId, dailyLimit);
      const profile = buildProfile({
        id: userId,
        created_at: now.toISOString(),
        email: `${userId}@artist.test`,
        full_name: `Artist ${index}`,
        artist_name: `DJ ${index}`,
        tier,
        email_limit: planOf(tier).monthlyEmails,
        gmail_connected: true,
        gmail_email: mailbox.email,
        gmail_daily_limit: mailbox.dailyLimit,
        gmail_account_type: mailbox.accountType,
        time_zone: options.timeZone ?? null,
      });
      const user: PipelineUser = {
        userId,
        index,
        dailyLimit,
        monthlyLimit: planOf(tier).monthlyEmails,
        preDay: new Map(),
        preMonth: new Map(),
        campaigns: [],
      };
      const put = (item: Record<string, unknown>) => requests.push({ PutRequest: { Item: { PK: key.user(userId), ...item } } });
      put({ SK: key.profile(), entity: 'profile', ...profile });
      put({ SK: key.mailbox(), entity: 'mailbox', ...mailbox });
      if (options.sentToday) {
        user.preDay.set(pacificDate(now), options.sentToday);
        put({ SK: key.dayCounter(pacificDate(now)), entity: 'counter', sent: options.sentToday });
      }
      if (options.usedThisMonth) {
        user.preMonth.set(pacificMonth(now), options.usedThisMonth);
        put({ SK: key.monthCounter(pacificMonth(now)), entity: 'counter', sent: options.usedThisMonth });
      }
      added.push(user);
    }
    await batchWriteAll(this.db, this.tableName, requests, { concurrency: 8 });
    for (const user of added) {
      this.users.push(user);
      this.userIds.add(user.userId);
    }
    return added;
  }

  private async mailboxFor(userId: string, dailyLimit: number): Promise<StoredMailbox> {
    return {
      email: `${userId}@gmail.test`,
      accountType: dailyLimit > 500 ? 'workspace' : 'free',
      dailyLimit,
      sealedRefreshToken: await fakeSecretBox.seal(`refresh-${userId}`, { userId }),
      connectedAt: this.now.toISOString(),
    };
  }

  user(userId: string): PipelineUser {
    const user = this.users.find((u) => u.userId === userId);
    if (!user) throw new Error(`no user ${userId}`);
    return user;
  }

  /** Contacts of a user (not stored: the queue keeps its own snapshot); `names` picks the addresses. */
  contacts(userId: string, names: readonly (string | number)[]): Contact[] {
    return names.map((name) => {
      const email = `r${name}-${userId}@label.test`;
      return buildContact({
        id: addressId(userId, email),
        name: `Recipient ${name}`,
        email,
        label_name: `Label ${name}`,
        created_at: '2026-01-01T00:00:00.000Z',
      });
    });
  }

  /** An HTML-mode draft (a link to the track and one to the artist's site). */
  async draft(userId: string, recipients: number, trackName = 'Midnight Drive'): Promise<Campaign> {
    return this.campaigns.createDraft(
      userId,
      buildDraftContent({
        track_name: trackName,
        track_url: `https://music.test/${encodeURIComponent(trackName)}`,
        email_body:
          '<!DOCTYPE html><html><body><p>Hi [CONTACT_NAME],</p><p><a href="https://music.test/listen">Listen</a> · <a href="https://artist.test/">My site</a></p></body></html>',
        total_recipients: recipients,
      }),
      this.now,
    );
  }

  /** Queues the selection through the send flow's store, in batches of SEND_BATCH_SIZE as the web sends them. */
  async queue(
    userId: string,
    campaign: Campaign,
    contacts: Contact[],
    sendAfter: Date = this.now,
    sendWindow: CampaignSendWindow | null = null,
    { followUps = NO_FOLLOW_UPS, sendAgain = false }: { followUps?: FollowUps; sendAgain?: boolean } = {},
  ): Promise<PipelineCampaign> {
    const batches = Math.max(1, Math.ceil(contacts.length / SEND_BATCH_SIZE));
    this.touched();
    const start = this.log.add({ kind: 'action', action: 'queue', phase: 'start', userId, campaignId: campaign.id });
    for (let b = 0; b < batches; b++) {
      const result = await this.sendQueue.queueBatch(userId, {
        campaignId: campaign.id,
        batchStart: b * SEND_BATCH_SIZE,
        total: contacts.length,
        contacts: contacts.slice(b * SEND_BATCH_SIZE, (b + 1) * SEND_BATCH_SIZE),
        sendAfter,
        now: this.now,
        sendWindow,
        followUps,
        sendAgain,
      });
      if (result.outcome !== 'queued') throw new Error(`queueBatch ${campaign.id} batch ${b}: ${result.outcome}`);
    }
    this.log.add({ kind: 'action', action: 'queue', phase: 'end', userId, campaignId: campaign.id, outcome: `queued at ${start}` });
    const queued = { userId, campaign, contacts, followUps, trackKey: pitchKey(campaign) };
    this.user(userId).campaigns.push(queued);
    return queued;
  }

  /** A draft of `n` recipients (or these contacts) queued now (or at sendAfter). */
  async campaignFor(
    userId: string,
    contacts: Contact[],
    options: { sendAfter?: Date; trackName?: string; sendWindow?: CampaignSendWindow | null; followUps?: FollowUps; sendAgain?: boolean } = {},
  ): Promise<PipelineCampaign> {
    const draft = await this.draft(userId, contacts.length, options.trackName);
    return this.queue(userId, draft, contacts, options.sendAfter, options.sendWindow ?? null, {
      ...(options.followUps ? { followUps: options.followUps } : {}),
      ...(options.sendAgain ? { sendAgain: true } : {}),
    });
  }

  // ---- user actions (logged) ---------------------------------------------------------------------

  async pause(userId: string, campaignId: string, concurrent = false) {
    this.touched();
    this.log.add({ kind: 'action', action: 'pause', phase: 'start', userId, campaignId, concurrent });
    const result = await this.sendQueue.pause(userId, campaignId, this.now);
    this.log.add({ kind: 'action', action: 'pause', phase: 'end', userId, campaignId, outcome: result.outcome, concurrent });
    return result.outcome;
  }

  async resume(userId: string, campaignId: string, concurrent = false) {
    this.touched();
    this.log.add({ kind: 'action', action: 'resume', phase: 'start', userId, campaignId, concurrent });
    const result = await this.sendQueue.resume(userId, campaignId, this.now);
    this.log.add({ kind: 'action', action: 'resume', phase: 'end', userId, campaignId, outcome: result.outcome, concurrent });
    return result.outcome;
  }

  /**
   * The address unsubscribes: through the tracking store with the token of an email it got from this
   * user (as the unsubscribe page does), or, when it got none yet, the same item written by the
   * unsubscribe store (an unsubscribe from another campaign, or the Contacts page).
   */
  async unsubscribe(userId: string, email: string, concurrent = false) {
    this.touched();
    this.log.add({ kind: 'action', action: 'unsubscribe', phase: 'start', userId, email, concurrent });
    const mailer = this.mailer instanceof FaultyMailer ? this.mailer : undefined;
    const token = mailer?.calls.find((call) => call.userId === userId && call.to === email && call.delivered && call.token)?.token;
    const stored = token ? await this.tracking.getToken(token) : undefined;
    let outcome: string;
    if (stored) outcome = await this.tracking.unsubscribe(stored, { reason: null, details: null }, this.now);
    else {
      await this.unsubscribes.record(userId, {
        contact_name: null,
        contact_email: email,
        unsubscribed_at: this.now.toISOString(),
        unsubscribe_reason: null,
        unsubscribe_reason_details: null,
        campaign_id: null,
        track_name: null,
      });
      outcome = 'recorded';
    }
    this.log.add({ kind: 'action', action: 'unsubscribe', phase: 'end', userId, email, outcome, concurrent });
    return outcome;
  }

  /**
   * The recipient of one of this user's delivered emails (the `pick`-th, wrapping) opens it as a
   * person or a machine, or clicks one of its links, `copies` times at once (a pixel fetched twice, a
   * double click): the tracking store with that email's token. False when there is nothing to track yet.
   */
  async track(userId: string, event: 'human' | 'machine' | 'click', pick: number, copies: number): Promise<boolean> {
    const token = await this.deliveredToken(userId, pick);
    if (!token || (event === 'click' && token.links.length === 0)) return false;
    const link = pick % Math.max(1, token.links.length);
    const fetch = () =>
      Promise.all(
        Array.from({ length: copies }, () =>
          event === 'click' ? this.tracking.recordClick(token, link, this.now) : this.tracking.recordOpen(token, event, this.now),
        ),
      );
    // A click stops the email's follow-up steps (an open never does).
    if (event === 'click') await this.stopAct('click', token, fetch);
    else await fetch();
    return true;
  }

  /**
   * The recipient of one of this user's delivered emails (the `pick`-th, wrapping) on its listen page, the
   * same beacon `copies` times at once: a play session started and heard to a milestone (25 % or more: a
   * listen), or an answer. The listen store with that email's token. False when nothing was delivered yet.
   */
  async listen(userId: string, event: 'play' | 'answer', pick: number, copies: number): Promise<boolean> {
    const token = await this.deliveredToken(userId, pick);
    if (!token) return false;
    await this.listenOn(token, event === 'answer' ? listenAnswers[pick % listenAnswers.length]! : undefined, pick, copies);
    return true;
  }

  /** An answer (`answer`) or a play heard to a milestone (25 % or more: a listen) on this email's listen page, `copies` times at once; logged as a stop act. */
  private async listenOn(token: EmailToken, answer: ListenAnswer | undefined, pick: number, copies: number, concurrent = false): Promise<void> {
    const now = this.now;
    const session = `session-${pick}-${now.getTime()}`;
    const milestone = listenMilestones[pick % listenMilestones.length]!;
    const beacons = async () => {
      const outcomes = await Promise.all(
        Array.from({ length: copies }, async () => {
          if (answer) {
            await this.listens.answer(token, { answer, note: null }, now);
            return 'recorded';
          }
          await this.listens.recordPlay(token, session, now);
          return this.listens.recordProgress(token, { session, milestone, seconds: 45, durationSeconds: 180 }, now);
        }),
      );
      return outcomes.includes('recorded') ? 'recorded' : 'rate_limited';
    };
    await this.stopAct(answer ? 'answer' : 'listen', token, beacons, { ...(answer ? { answer } : {}), concurrent });
  }

  /**
   * A stop act on a delivered email (issue 27 §1), logged around the store's write with the email's
   * campaign, position, address and track, and what the store said: an answer (and its value), a listen,
   * a click, or the artist's Replied mark. (An unsubscribe is `unsubscribe`.)
   */
  private async stopAct(
    action: StopKind,
    token: EmailToken,
    act: () => Promise<unknown>,
    { answer, concurrent = false }: { answer?: string; concurrent?: boolean } = {},
  ): Promise<string> {
    this.touched();
    const about = {
      kind: 'action' as const,
      action,
      userId: token.user_id,
      campaignId: token.campaign_id,
      position: token.position,
      email: token.contact_email,
      trackKey: this.campaignOf(token.campaign_id)?.trackKey,
      ...(answer ? { answer } : {}),
      concurrent,
    };
    this.log.add({ ...about, phase: 'start' });
    const result = await act();
    const outcome = typeof result === 'string' ? result : 'recorded';
    this.log.add({ ...about, phase: 'end', outcome });
    return outcome;
  }

  /**
   * Stops the steps of the email `call` delivered (or of its first email): the recipient answers
   * (`answer`), listens, clicks, or unsubscribes, or the artist marks it Replied. Through the stores the
   * pages use, with the token as the page finds it. Returns what was done, or undefined when nothing could be.
   */
  async stop(
    call: MailerCall,
    kind: StopKind | 'unsubscribe',
    { answer = 'interested', concurrent = false }: { answer?: ListenAnswer; concurrent?: boolean } = {},
  ) {
    if (kind === 'unsubscribe') return this.unsubscribe(call.userId, call.to, concurrent);
    const token = call.token ? await this.tracking.getToken(call.token) : undefined;
    if (!token) return undefined;
    switch (kind) {
      case 'answer':
        await this.listenOn(token, answer, 0, 1, concurrent);
        return answer;
      case 'listen':
        await this.listenOn(token, undefined, 0, 1, concurrent);
        return 'listen';
      case 'click':
        if (token.links.length === 0) return undefined;
        await this.stopAct('click', token, () => this.tracking.recordClick(token, 0, this.now), { concurrent });
        return 'click';
      case 'reply':
        return this.stopAct(
          'reply',
          token,
          async () =>
            (await this.sendQueue.markReplied(token.campaign_id, token.position, this.now, { userId: token.user_id, trackKey: token.track_key ?? '' })).outcome,
          { concurrent },
        );
    }
  }

  /** The world's campaign of this id. */
  campaignOf(campaignId: string): PipelineCampaign | undefined {
    for (const user of this.users) for (const c of user.campaigns) if (c.campaign.id === campaignId) return c;
    return undefined;
  }

  /** The stored token of one of this user's delivered emails (the `pick`-th, wrapping). */
  private async deliveredToken(userId: string, pick: number) {
    const delivered = this.mail.calls.filter((call) => call.userId === userId && call.delivered && call.token);
    const call = delivered[pick % Math.max(1, delivered.length)];
    return call?.token ? this.tracking.getToken(call.token) : undefined;
  }

  /** Settings → disconnect: the mailbox item deleted and the profile says disconnected. */
  async disconnect(userId: string) {
    this.touched();
    this.log.add({ kind: 'action', action: 'disconnect', phase: 'start', userId });
    const removed = await this.mailboxes.disconnect(userId);
    this.log.add({ kind: 'action', action: 'disconnect', phase: 'end', userId, outcome: removed ? 'disconnected' : 'none' });
  }

  async connect(userId: string) {
    this.touched();
    this.log.add({ kind: 'action', action: 'connect', phase: 'start', userId });
    await this.mailboxes.connect(userId, await this.mailboxFor(userId, this.user(userId).dailyLimit));
    this.log.add({ kind: 'action', action: 'connect', phase: 'end', userId });
  }

  /** Every paused campaign resumed (the mailbox connected again first when it is gone, or when follow-up steps wait for it). */
  async resumeEverything(): Promise<number> {
    let resumed = 0;
    for (const user of this.users) {
      const items = await this.campaignItems(user);
      const paused = items.filter((item) => item?.sending_status === 'paused');
      if (paused.length === 0) {
        // A step waits for the mailbox without a paused campaign (its first emails were all done).
        if (user.campaigns.some((c) => c.followUps.steps.length > 0) && !(await this.mailboxes.get(user.userId))) await this.connect(user.userId);
        continue;
      }
      if (!(await this.mailboxes.get(user.userId))) await this.connect(user.userId);
      for (const item of paused) if ((await this.resume(user.userId, String(item!.id))) === 'resumed') resumed++;
    }
    return resumed;
  }

  // ---- driving ------------------------------------------------------------------------------------

  /** One dispatcher run (the scheduler's payload carries the minute). */
  async dispatch(at: Date = this.now): Promise<number> {
    const { dispatched } = await this.dispatcher({ scheduledTime: at.toISOString() });
    this.touched();
    this.stats.dispatched += dispatched;
    return dispatched;
  }

  /** One sender invocation with this batch, inside its own invocation context. */
  private async invoke(messages: ReceivedMessage[]) {
    const invocation: Invocation = { id: ++this.invocations, startSeq: -1, crashed: false };
    invocation.startSeq = this.log.add({ kind: 'invocation', invocation: invocation.id });
    this.stats.invocations++;
    let failed: Set<string>;
    try {
      const response = await currentInvocation.run(invocation, () => this.handler(sqsEvent(messages, this.now)));
      failed = new Set(response.batchItemFailures.map((failure) => failure.itemIdentifier));
    } catch {
      failed = new Set(messages.map((message) => message.receiptHandle));
    }
    if (invocation.crashed) this.stats.crashedInvocations++;
    else
      for (const message of messages)
        if (failed.has(message.receiptHandle)) this.log.add({ kind: 'tick-failed', invocation: invocation.id, userId: message.groupId });
    return { crashed: invocation.crashed, failed };
  }

  /**
   * Hands out everything the queue delivers now, `concurrency` invocations at a time (the local ticker
   * runs one); a crashed invocation deletes nothing, a failed message stays (visibility timeout).
   */
  async deliver(options: { concurrency?: number; choices?: DriveHooks['deliveryChoices'] } = {}): Promise<{ delivered: number }> {
    let delivered = 0;
    for (;;) {
      const batches: ReceivedMessage[][] = [];
      for (;;) {
        const messages = this.fifo.receive(LOCAL_BATCH_SIZE);
        if (messages.length === 0) break;
        // Users in a stable order: the invocation's make-up does not depend on the shard hash.
        batches.push(messages.sort((a, b) => a.groupId.localeCompare(b.groupId)));
        if (batches.length >= (options.concurrency ?? 1)) break;
      }
      if (batches.length === 0) return { delivered };
      await Promise.all(
        batches.map(async (messages) => {
          delivered += messages.length;
          const choices = options.choices?.(messages) ?? {};
          const runs = [this.invoke(messages)];
          if (choices.duplicateConcurrently) {
            this.stats.duplicateInvocations++;
            runs.push(this.invoke(messages));
          }
          const outcomes = await Promise.all(runs);
          const first = outcomes[0]!;
          for (const message of messages) {
            const lost = choices.loseDelete?.has(message.receiptHandle) ?? false;
            if (lost) this.stats.lostDeletes++;
            if (first.crashed || first.failed.has(message.receiptHandle) || lost) this.redeliveries.push(this.now.getTime() + this.visibilityTimeoutMs);
            else this.fifo.delete(message.receiptHandle);
          }
        }),
      );
    }
  }

  /** What the DUE index query would answer for this world's users (see `cursorsFrom`). */
  private async listOwnDue(shard: number, now: Date, limit: number): Promise<DueCursorWithHead[]> {
    this.cursorRead ??= this.cursors();
    const due: DueCursorWithHead[] = [];
    for (const [userId, cursor] of await this.cursorRead) {
      if (!cursor || dueShard(userId) !== shard) continue;
      const dueAt = cursor.due_at;
      const expected = dueAt ? { pk: key.duePartition(shard), sk: key.dueSort(dueAt, userId) } : { pk: undefined, sk: undefined };
      if (cursor[indexes.due.partitionKey] !== expected.pk || cursor[indexes.due.sortKey] !== expected.sk) {
        const problem = `${userId}: due_at ${String(dueAt)} but DUE index keys ${String(cursor[indexes.due.partitionKey])} / ${String(cursor[indexes.due.sortKey])}`;
        if (!this.dueIndexProblems.includes(problem)) this.dueIndexProblems.push(problem);
      }
      if (dueAt && dueAt <= now.toISOString()) {
        const head = headOf(cursor.queue ?? {}, now);
        due.push({ userId, dueAt, ...(head ? { head } : {}) });
      }
    }
    return due.sort((a, b) => a.dueAt.localeCompare(b.dueAt)).slice(0, limit);
  }

  /** Something other than the sender may have changed a cursor: the next dispatcher run reads again. */
  private touched(): void {
    this.cursorRead = undefined;
  }

  /** The cursors of this world's users (consistent reads). */
  async cursors(): Promise<Map<string, CursorItem | undefined>> {
    const items = await this.batchGet(this.users.map((user) => ({ PK: key.user(user.userId), SK: key.sender() })));
    return new Map(this.users.map((user) => [user.userId, items.find((item) => item.PK === key.user(user.userId)) as never]));
  }

  private batchGet(keys: { PK: string; SK: string }[]): Promise<Record<string, unknown>[]> {
    return batchGetAll(this.db, this.tableName, keys, { consistentRead: true, concurrency: 8 });
  }

  /**
   * Fires the dispatcher at every simulated minute something can happen (the minutes in between,
   * when no cursor is due and nothing waits for redelivery, are skipped), delivering after each run,
   * until nothing is due, the queue is empty and the hooks want nothing more. Returns the minutes fired.
   */
  async drive(hooks: DriveHooks = {}, maxFirings = 600): Promise<{ firings: number; settled: boolean }> {
    let firings = 0;
    let minute = floorMinute(this.now.getTime());
    while (firings < maxFirings) {
      this.clock.set(minute);
      firings++;
      this.stats.firings++;
      const race = await hooks.atMinute?.(this.now, firings);
      // The scheduler firing twice: at the same time (two runs at once, before any delivery) or later.
      const second = hooks.secondFiring?.();
      if (second !== undefined) this.stats.secondFirings++;
      await Promise.all([this.dispatch(new Date(minute)), second === 0 ? this.dispatch(new Date(minute)) : undefined]);
      const jitter = hooks.jitterMs?.() ?? 0;
      this.clock.set(minute + jitter);
      const deliveries = this.deliver({ ...(hooks.deliveryChoices ? { choices: hooks.deliveryChoices } : {}) });
      await Promise.all([deliveries, race ? race() : undefined]);
      if (second !== undefined && second > 0) {
        this.clock.set(Math.max(this.now.getTime(), minute + second));
        await this.dispatch(this.now);
        await this.deliver({ ...(hooks.deliveryChoices ? { choices: hooks.deliveryChoices } : {}) });
      }
      // What is the next minute anything can happen?
      const wakes: number[] = [];
      const read = this.cursors();
      for (const cursor of (await read).values()) if (cursor?.due_at) wakes.push(Date.parse(cursor.due_at));
      // Nothing changes the cursors until the next minute's actions (which call touched()).
      this.cursorRead = read;
      const nowMs = this.now.getTime();
      for (let i = this.redeliveries.length - 1; i >= 0; i--) if (this.redeliveries[i]! <= nowMs) this.redeliveries.splice(i, 1);
      wakes.push(...this.redeliveries);
      if (this.fifo.depth > 0 && this.redeliveries.length === 0) wakes.push(nowMs + MINUTE_MS);
      const planned = hooks.wakeAt?.();
      if (planned !== undefined) wakes.push(planned);
      if (wakes.length === 0) return { firings, settled: true };
      minute = Math.max(minute + MINUTE_MS, ceilMinute(Math.min(...wakes)));
    }
    return { firings, settled: false };
  }

  /** Takes this world's cursors out of the DUE index (a shared table: later runs' dispatchers skip them). */
  async cleanup(snapshot?: Snapshot): Promise<void> {
    const indexed = snapshot ? snapshot.users.filter((u) => u.cursor?.[indexes.due.partitionKey] !== undefined).map((u) => u.user) : this.users;
    await Promise.all(
      indexed.map((user) =>
        this.db
          .send(
            new UpdateCommand({
              TableName: this.tableName,
              Key: { PK: key.user(user.userId), SK: key.sender() },
              UpdateExpression: 'REMOVE DuePK, DueSK',
              ConditionExpression: 'attribute_exists(PK)',
            }),
          )
          .catch(() => undefined),
      ),
    );
  }

  // ---- what the table holds -------------------------------------------------------------------------

  async campaignItems(user: PipelineUser): Promise<(Record<string, unknown> | undefined)[]> {
    const items = await this.batchGet(user.campaigns.map((c) => ({ PK: key.user(user.userId), SK: key.campaign(c.campaign.id) })));
    return user.campaigns.map((c) => items.find((item) => item.SK === key.campaign(c.campaign.id)));
  }

  async recipients(campaignId: string): Promise<(RecipientRecord & Record<string, unknown>)[]> {
    const found = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :rcpt)',
      ExpressionAttributeValues: { ':pk': key.campaignPartition(campaignId), ':rcpt': key.recipientPrefix() },
      ConsistentRead: true,
    });
    return found as never;
  }

  async linkClicks(campaignId: string): Promise<Record<string, unknown>[]> {
    const page = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :link)',
        ExpressionAttributeValues: { ':pk': key.campaignPartition(campaignId), ':link': key.linkClicksPrefix() },
        ConsistentRead: true,
      }),
    );
    return page.Items ?? [];
  }

  /** The user's follow-up steps still waiting or being sent (FOLLOWUP items). */
  async followUpItems(userId: string): Promise<FollowUpItem[]> {
    const found = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': key.user(userId), ':prefix': key.followUpPrefix() },
      ConsistentRead: true,
    });
    return found.map(toFollowUpItem);
  }

  /** What the table holds for this world: recipients, link clicks (a query each per campaign), counters and steps (per user), then one batch read of the rest. */
  async snapshot(): Promise<Snapshot> {
    const recipients = new Map<string, (RecipientRecord & Record<string, unknown>)[]>();
    const links = new Map<string, Record<string, unknown>[]>();
    const counters = new Map<string, CountersFromLogs>();
    const followUps = new Map<string, FollowUpItem[]>();
    await Promise.all([
      ...this.users.map(async (user) => followUps.set(user.userId, await this.followUpItems(user.userId))),
      ...this.users.flatMap((user) => user.campaigns.map(async (c) => recipients.set(c.campaign.id, await this.recipients(c.campaign.id)))),
      ...this.users.flatMap((user) => user.campaigns.map(async (c) => links.set(c.campaign.id, await this.linkClicks(c.campaign.id)))),
      ...this.users.map(async (user) => counters.set(user.userId, await readCounters(this.db, this.tableName, user.userId))),
    ]);
    const mailer = this.mailer instanceof FaultyMailer ? this.mailer : undefined;
    const plans = this.users.map((user) => {
      const days = new Set(user.preDay.keys());
      const months = new Set(user.preMonth.keys());
      const times = [
        ...(mailer?.calls.filter((call) => call.userId === user.userId).map((call) => call.at) ?? []),
        ...user.campaigns.flatMap((c) =>
          recipients.get(c.campaign.id)!.flatMap((r) => [r.sent_at, r.claimed_at].filter((t): t is string => typeof t === 'string').map((t) => new Date(t))),
        ),
      ];
      for (const at of times) {
        days.add(pacificDate(at));
        months.add(pacificMonth(at));
      }
      const addresses = [...new Set(user.campaigns.flatMap((c) => c.contacts.map((contact) => contact.email)))];
      return { user, days: [...days], months: [...months], addresses };
    });
    const keys = plans.flatMap(({ user, days, months, addresses }) => {
      const pk = key.user(user.userId);
      return [
        { PK: pk, SK: key.sender() },
        { PK: pk, SK: key.mailbox() },
        ...user.campaigns.map((c) => ({ PK: pk, SK: key.campaign(c.campaign.id) })),
        ...days.map((d) => ({ PK: pk, SK: key.dayCounter(d) })),
        ...months.map((m) => ({ PK: pk, SK: key.monthCounter(m) })),
        ...addresses.map((email) => ({ PK: pk, SK: key.unsubscribe(addressId(user.userId, email)) })),
      ];
    });
    const items = await this.batchGet(keys);
    const find = (pk: string, sk: string) => items.find((item) => item.PK === pk && item.SK === sk);
    return {
      users: plans.map(({ user, days, months, addresses }) => {
        const pk = key.user(user.userId);
        const counter = (sk: string) => Number(find(pk, sk)?.sent ?? 0);
        const mailbox = find(pk, key.mailbox());
        return {
          user,
          cursor: find(pk, key.sender()),
          campaigns: user.campaigns.map((c) => ({
            ...c,
            item: find(pk, key.campaign(c.campaign.id)),
            recipients: recipients.get(c.campaign.id)!,
            links: links.get(c.campaign.id)!,
          })),
          day: new Map(days.map((d) => [d, counter(key.dayCounter(d))])),
          month: new Map(months.map((m) => [m, counter(key.monthCounter(m))])),
          unsubscribed: new Set(addresses.filter((email) => find(pk, key.unsubscribe(addressId(user.userId, email))))),
          unsubscribes: addresses.map((email) => find(pk, key.unsubscribe(addressId(user.userId, email)))).filter((item) => item !== undefined),
          counters: counters.get(user.userId)!,
          mailbox: mailbox as StoredMailbox | undefined,
          followUps: followUps.get(user.userId)!,
        };
      }),
    };
  }
}

export interface Snapshot {
  users: {
    user: PipelineUser;
    cursor: CursorItem | undefined;
    campaigns: (PipelineCampaign & {
      item: Record<string, unknown> | undefined;
      recipients: (RecipientRecord & Record<string, unknown>)[];
      /** The campaign's per-link click counters (`LINK#<index>`). */
      links: Record<string, unknown>[];
    })[];
    day: Map<string, number>;
    month: Map<string, number>;
    unsubscribed: Set<string>;
    /** The UNSUB items of the user's addresses. */
    unsubscribes: Record<string, unknown>[];
    /** The user's counters as stored (STATS, STATS#<day>). */
    counters: CountersFromLogs;
    mailbox: StoredMailbox | undefined;
    /** The user's follow-up steps still waiting or being sent. */
    followUps: FollowUpItem[];
  }[];
}

// =====================================================================================================
// DESIGN §4's invariants, checked against the log and the table.

const FINAL = new Set(['sent', 'failed', 'skipped', 'unknown']);

export interface InvariantOptions {
  /** Every campaign must have completed (the run resumed everything and settled). */
  expectCompleted?: boolean;
}

/**
 * Every broken invariant, in words (empty: all hold):
 * - at most one email delivered per (campaign, position); no call after it; at most MAX_ATTEMPTS calls
 *   that used an attempt (a daily-limit or invalid_grant answer waits for the reset or the reconnection);
 * - every mailer call follows a successful claim of that position in the same invocation;
 * - nothing sent to an address whose claim started after its unsubscribe was written;
 * - per user: calls ≥ interval apart; per Pacific day ≤ the daily limit; per Pacific month ≤ the plan's;
 * - no claim succeeds for a campaign between its pause and its resume (pause stops within one tick),
 *   nor after an invalid_grant paused it (until resumed), nor by a tick that read after a disconnect;
 * - per campaign, positions go out in order (resume continues where it stopped, nothing skipped);
 * - every recipient ends sent | failed | skipped | unknown (unless its campaign is paused), consistent
 *   with what the mailer saw; campaign counters == recipient statuses; DAY/MONTH == sent + unknown;
 * - every email the mailbox accepted is recorded sent, unless the tick that sent it crashed or failed;
 * - the user's counters (DESIGN §11: totals, per Pacific day), the campaign's opened / machine-opened /
 *   clicked / unsubscribed / listened / answered counters and its per-link clicks == what the recipients
 *   and unsubscribes say; `campaigns_sent` == the campaigns out of draft, on the day each was first queued.
 */
export function invariantViolations(world: PipelineWorld, snapshot: Snapshot, options: InvariantOptions = {}): string[] {
  const problems: string[] = [...world.dueIndexProblems];
  const mailer = world.mail;
  const events = world.log.events;
  const calls = mailer.calls;
  /** A first email's (campaign, position), or a follow-up step's (campaign, position, step). */
  const slot = (campaignId: string, position: number, step = 0) => (step ? `${campaignId}#${position}#step${step}` : `${campaignId}#${position}`);
  const callsBySlot = new Map<string, MailerCall[]>();
  for (const call of calls) {
    const id = slot(call.campaignId, call.position, call.step);
    callsBySlot.set(id, [...(callsBySlot.get(id) ?? []), call]);
  }
  const fmt = (call: MailerCall) =>
    `call #${call.seq} (${call.userId} ${slot(call.campaignId, call.position, call.step)} at ${call.at.toISOString()}${call.fault ? `, ${call.fault}` : ''})`;

  // Once per (campaign, position), and per (campaign, position, step).
  for (const [key, slotCalls] of callsBySlot) {
    const delivered = slotCalls.filter((call) => call.delivered);
    if (delivered.length > 1) problems.push(`${key}: delivered ${delivered.length} times (${delivered.map(fmt).join('; ')})`);
    const firstDelivered = slotCalls.findIndex((call) => call.delivered);
    if (firstDelivered >= 0 && firstDelivered < slotCalls.length - 1)
      problems.push(`${key}: called again after it was delivered (${slotCalls.map(fmt).join('; ')})`);
    // A daily-limit or invalid_grant answer puts the email back without using an attempt (the sender's rule).
    const attempts = slotCalls.filter((call) => call.fault !== 'crashed' && call.fault !== 'daily_limit' && call.fault !== 'auth').length;
    if (attempts > MAX_ATTEMPTS)
      problems.push(`${key}: ${attempts} provider calls that used an attempt (max ${MAX_ATTEMPTS}): ${slotCalls.map(fmt).join('; ')}`);
  }

  // An email the mailbox accepted is recorded sent (DESIGN §13: a conflict is retried, never read as the
  // claim lost), unless its invocation died or its tick failed after the send (the record threw: SQS
  // retries the tick, and the stale claim is recorded unknown).
  const crashed = new Set(events.flatMap((e) => (e.kind === 'crash' ? [e.invocation] : [])));
  const failedTicks = new Set(events.flatMap((e) => (e.kind === 'tick-failed' ? [`${e.invocation}#${e.userId}`] : [])));
  const statusOf = new Map<string, string | undefined>(
    snapshot.users.flatMap((u) =>
      u.campaigns.flatMap((c) =>
        c.recipients.flatMap((r) => [
          [slot(c.campaign.id, r.position), r.status] as const,
          ...c.followUps.steps.map((_, i) => [slot(c.campaign.id, r.position, i + 1), stepOutcome(r, i + 1)?.state] as const),
        ]),
      ),
    ),
  );
  for (const call of calls) {
    if (call.fault !== undefined || call.invocation === undefined) continue;
    if (crashed.has(call.invocation) || failedTicks.has(`${call.invocation}#${call.userId}`)) continue;
    const status = statusOf.get(slot(call.campaignId, call.position, call.step));
    if (status !== 'sent') problems.push(`${fmt(call)}: accepted by the mailbox in a tick that neither crashed nor failed, yet recorded ${String(status)}`);
  }

  // Each claim's start, and each call's claim: same invocation, same position, succeeded, before the call.
  const lastStart = new Map<string, number>();
  const claimStartOf = new Map<number, number>();
  const lastOk = new Map<string, number>();
  const claimOf = new Map<MailerCall, number>();
  const invocationStart = new Map<number, number>();
  for (const event of events) {
    if (event.kind === 'invocation') invocationStart.set(event.invocation, event.seq);
    if (event.kind === 'claim') {
      const id = `${event.invocation}#${slot(event.campaignId, event.position, event.followUp)}`;
      if (event.phase === 'start') lastStart.set(id, event.seq);
      if (event.phase === 'ok') {
        claimStartOf.set(event.seq, lastStart.get(id) ?? event.seq);
        lastOk.set(id, event.seq);
      }
    }
    if (event.kind === 'mail') {
      const call = event.call;
      const ok = lastOk.get(`${call.invocation}#${slot(call.campaignId, call.position, call.step)}`);
      if (ok === undefined) problems.push(`${fmt(call)}: no successful claim of that position before it in its invocation`);
      else claimOf.set(call, claimStartOf.get(ok)!);
    }
  }

  // Follow-up steps (issue 27 §1): none goes after a stop act written before its claim started; each
  // goes in its first email's thread, not before it is due.
  problems.push(...stopViolations(world, snapshot, calls, events, claimOf, fmt));

  // Unsubscribed addresses: no claim that started after the unsubscribe was written may send.
  const unsubscribedAt = new Map<string, number>();
  for (const event of events) {
    if (event.kind === 'action' && event.action === 'unsubscribe' && event.phase === 'end') {
      const id = `${event.userId}#${event.email}`;
      if (!unsubscribedAt.has(id)) unsubscribedAt.set(id, event.seq);
    }
  }
  for (const call of calls) {
    const written = unsubscribedAt.get(`${call.userId}#${call.to}`);
    const claimStart = claimOf.get(call);
    if (written !== undefined && claimStart !== undefined && claimStart > written) {
      problems.push(`${fmt(call)}: sent to ${call.to}, whose unsubscribe was written (#${written}) before the claim started (#${claimStart})`);
    }
  }

  // Paused: no claim that started after a pause ended (or after an invalid_grant was recorded) succeeds
  // before a resume of that campaign started; no claim by a tick that started after a disconnect.
  const pauses: { userId: string; campaignId: string | undefined; from: number; why: string }[] = [];
  for (const event of events) {
    if (event.kind === 'action' && event.action === 'pause' && event.phase === 'end' && event.outcome === 'paused')
      pauses.push({ userId: event.userId, campaignId: event.campaignId, from: event.seq, why: 'paused' });
    // A first email's invalid_grant record pauses its campaigns in the same transaction; a step's only disconnects the mailbox.
    if (event.kind === 'record' && event.record === 'auth' && event.phase === 'ok' && event.followUp === 0)
      pauses.push({ userId: event.userId, campaignId: undefined, from: event.seq, why: 'paused by invalid_grant' });
  }
  const resumeStarts = events.filter(
    (e): e is Extract<PipelineEvent, { kind: 'action' }> => e.kind === 'action' && e.action === 'resume' && e.phase === 'start',
  );
  // An invalid_grant pauses the campaigns the user has then: one queued after it (a track sent again) is not among them.
  const queuedFrom = new Map<string, number>();
  for (const event of events) {
    if (event.kind === 'action' && event.action === 'queue' && event.phase === 'start' && event.campaignId !== undefined && !queuedFrom.has(event.campaignId))
      queuedFrom.set(event.campaignId, event.seq);
  }
  const mailboxChanges = events.filter(
    (e): e is Extract<PipelineEvent, { kind: 'action' }> => e.kind === 'action' && (e.action === 'disconnect' || e.action === 'connect') && e.phase === 'end',
  );
  for (const event of events) {
    if (event.kind !== 'claim' || event.phase !== 'ok') continue;
    const start = claimStartOf.get(event.seq)!;
    for (const pause of pauses) {
      if (pause.userId !== event.userId || (pause.campaignId !== undefined && pause.campaignId !== event.campaignId) || pause.from > start) continue;
      // An invalid_grant pauses the campaigns still sending; a finished campaign's steps wait only for the
      // mailbox (the disconnect rule below), so a step's claim is held to it by the campaign's own pauses.
      if (pause.campaignId === undefined && event.followUp !== 0) continue;
      if (pause.campaignId === undefined && (queuedFrom.get(event.campaignId) ?? -1) > pause.from) continue;
      const resumed = resumeStarts.some((e) => e.userId === event.userId && e.campaignId === event.campaignId && e.seq > pause.from && e.seq < start);
      if (!resumed)
        problems.push(`claim #${event.seq} of ${event.campaignId}#${event.position} (started #${start}) succeeded while ${pause.why} since #${pause.from}`);
    }
    const invStart = event.invocation !== undefined ? invocationStart.get(event.invocation) : undefined;
    const lastChange = invStart === undefined ? undefined : [...mailboxChanges].reverse().find((e) => e.userId === event.userId && e.seq < invStart);
    if (lastChange?.action === 'disconnect')
      problems.push(
        `claim #${event.seq} of ${event.campaignId}#${event.position} by a tick that started after the mailbox was disconnected (#${lastChange.seq})`,
      );
  }

  // The last successful claim of each email and step (an unknown one is counted on its claim's day).
  const lastClaimAt = new Map<string, Date>();
  for (const event of events)
    if (event.kind === 'claim' && event.phase === 'ok') lastClaimAt.set(slot(event.campaignId, event.position, event.followUp), event.at);

  for (const { user, cursor, campaigns, day, month, unsubscribed, unsubscribes, counters, followUps } of snapshot.users) {
    problems.push(...counterViolations(user.userId, campaigns, unsubscribes, counters));
    const userCalls = calls.filter((call) => call.userId === user.userId);
    // Pacing, in slots (DESIGN §13): every provider call of a user is a claim's, in the slot of the
    // dispatcher run that queued its tick (the world delivers within the minute), one claim per slot.
    const attempts = userCalls.filter((call) => call.fault !== 'crashed').sort((a, b) => a.at.getTime() - b.at.getTime() || a.seq - b.seq);
    const slotOf = (call: MailerCall) => Math.floor(call.at.getTime() / world.intervalMs);
    for (let i = 1; i < attempts.length; i++) {
      if (slotOf(attempts[i]!) <= slotOf(attempts[i - 1]!))
        problems.push(`${user.userId}: two provider calls in one slot (${fmt(attempts[i - 1]!)}; ${fmt(attempts[i]!)})`);
    }
    // Limits.
    const delivered = userCalls.filter((call) => call.delivered);
    const perDay = new Map<string, number>();
    const perMonth = new Map<string, number>();
    for (const call of delivered) {
      perDay.set(pacificDate(call.at), (perDay.get(pacificDate(call.at)) ?? 0) + 1);
      perMonth.set(pacificMonth(call.at), (perMonth.get(pacificMonth(call.at)) ?? 0) + 1);
    }
    for (const [d, n] of perDay) {
      const total = n + (user.preDay.get(d) ?? 0);
      if (total > user.dailyLimit)
        problems.push(`${user.userId}: ${total} emails on Pacific day ${d} (daily limit ${user.dailyLimit}, ${user.preDay.get(d) ?? 0} before the run)`);
    }
    if (user.monthlyLimit !== null) {
      for (const [m, n] of perMonth) {
        const total = n + (user.preMonth.get(m) ?? 0);
        if (total > user.monthlyLimit) problems.push(`${user.userId}: ${total} emails in Pacific month ${m} (monthly limit ${user.monthlyLimit})`);
      }
    }

    // Recipients, campaigns, counters.
    const countedDay = new Map<string, number>(user.preDay);
    const countedMonth = new Map<string, number>(user.preMonth);
    const count = (map: Map<string, number>, k: string) => map.set(k, (map.get(k) ?? 0) + 1);
    let active = false;
    for (const { campaign, contacts, item, recipients, followUps: planned } of campaigns) {
      const name = `${user.userId} campaign ${campaign.id}`;
      if (!item) {
        problems.push(`${name}: missing`);
        continue;
      }
      const paused = item.sending_status === 'paused';
      if (recipients.length !== contacts.length || item.total_queued !== contacts.length)
        problems.push(`${name}: ${recipients.length} recipients, total_queued ${String(item.total_queued)}, ${contacts.length} queued`);
      const resumeAt = paused ? Number(item.resume_position ?? 0) : Infinity;
      const statusCount = { sent: 0, failed: 0, skipped: 0, unknown: 0 } as Record<string, number>;
      for (const r of recipients) {
        const rname = `${campaign.id}#${r.position}`;
        const slotCalls = callsBySlot.get(slot(campaign.id, r.position)) ?? [];
        const deliveredCalls = slotCalls.filter((call) => call.delivered);
        if (r.status in statusCount) statusCount[r.status]!++;
        if (!FINAL.has(r.status)) {
          if (!paused || r.position < resumeAt) problems.push(`${rname}: ended ${r.status} (campaign ${String(item.status)}/${String(item.sending_status)})`);
          continue;
        }
        // (The position a pause kept may be final: an email in flight at the pause was recorded.)
        if (paused && r.position > resumeAt) problems.push(`${rname}: ${r.status} after the paused campaign's resume position ${resumeAt}`);
        if (r.status === 'sent') {
          count(countedDay, pacificDate(new Date(r.sent_at!)));
          count(countedMonth, pacificMonth(new Date(r.sent_at!)));
          const last = deliveredCalls.at(-1);
          if (deliveredCalls.length !== 1 || last!.fault !== undefined)
            problems.push(
              `${rname}: sent, but the mailer accepted it ${deliveredCalls.filter((c) => !c.fault).length} times (${slotCalls.map(fmt).join('; ') || 'no call'})`,
            );
          else if (r.message_id !== last!.messageId || r.token !== last!.token)
            problems.push(`${rname}: sent with message id ${String(r.message_id)}, the mailer got ${last!.messageId}`);
          if (!isEmailToken(r.token)) problems.push(`${rname}: token ${String(r.token)} is not an email token`);
        }
        if (r.status === 'unknown') {
          count(countedDay, pacificDate(new Date(r.claimed_at!)));
          count(countedMonth, pacificMonth(new Date(r.claimed_at!)));
          const claimed = events.some((e) => e.kind === 'claim' && e.phase === 'ok' && e.campaignId === campaign.id && e.position === r.position);
          if (!claimed) problems.push(`${rname}: unknown without ever being claimed`);
        }
        if (r.status === 'skipped') {
          if (deliveredCalls.length > 0) problems.push(`${rname}: skipped, yet delivered (${deliveredCalls.map(fmt).join('; ')})`);
          if (!unsubscribed.has(r.recipient_email)) problems.push(`${rname}: skipped, but ${r.recipient_email} never unsubscribed`);
        }
        if (r.status === 'failed') {
          if (deliveredCalls.length > 0) problems.push(`${rname}: failed, yet delivered`);
          const real = slotCalls.filter((c) => c.fault !== 'crashed');
          const lastFault = real.at(-1)?.fault;
          if (!(lastFault === 'rejected' || ((lastFault === 'rate_limited' || lastFault === 'transient') && r.attempts >= MAX_ATTEMPTS))) {
            problems.push(`${rname}: failed after ${real.map((c) => c.fault ?? 'accepted').join(', ') || 'no call'}`);
          }
        }
      }
      // Order: per campaign, each position's first provider call comes in position order; a position
      // called again after a later one is a retry that waited alone (its earlier call failed retryably).
      // A campaign sent in working hours lets recipients asleep wait alone, so its order is by window.
      const campaignCalls = calls.filter((call) => call.campaignId === campaign.id && call.step === 0 && call.fault !== 'crashed' && item.send_window == null);
      const firstCalls = campaignCalls.filter((call, i) => campaignCalls.findIndex((c) => c.position === call.position) === i);
      for (let i = 1; i < firstCalls.length; i++) {
        if (firstCalls[i]!.position < firstCalls[i - 1]!.position)
          problems.push(`${name}: position ${firstCalls[i]!.position} first sent after position ${firstCalls[i - 1]!.position}`);
      }
      for (const [i, call] of campaignCalls.entries()) {
        const earlier = campaignCalls.slice(0, i).filter((c) => c.position === call.position);
        if (
          earlier.length > 0 &&
          !earlier.every((c) => c.fault === 'rate_limited' || c.fault === 'transient' || c.fault === 'daily_limit' || c.fault === 'auth')
        )
          problems.push(`${name}: position ${call.position} called again after ${earlier.map(fmt).join('; ')}`);
      }
      for (const status of ['sent', 'failed', 'skipped', 'unknown']) {
        const stored = Number(item[`emails_${status}`] ?? 0);
        if (stored !== statusCount[status]) problems.push(`${name}: emails_${status} = ${stored}, ${statusCount[status]} recipients ${status}`);
      }

      // Its follow-up steps: each of a sent email's steps is settled (sent, stopped, failed, unknown) or
      // still waiting, never both, never twice; a step's outcome agrees with what the mailer saw, and a
      // sent or unknown one is counted in the day and month of its claim.
      let stepsSent = 0;
      for (const r of recipients) {
        for (let step = 1; step <= 2; step++) {
          const rname = `${campaign.id}#${r.position} step ${step}`;
          const outcome = stepOutcome(r, step);
          const waiting = followUps.filter((f) => f.campaign_id === campaign.id && f.position === r.position && f.step === step);
          const stepCalls = callsBySlot.get(slot(campaign.id, r.position, step)) ?? [];
          const stepDelivered = stepCalls.filter((call) => call.delivered);
          if (step > planned.steps.length || r.status !== 'sent') {
            if (outcome || waiting.length > 0 || stepCalls.length > 0)
              problems.push(
                `${rname}: a step the email does not have (first email ${r.status}): ${outcome?.state ?? ''} ${waiting.length} waiting, ${stepCalls.length} calls`,
              );
            continue;
          }
          if ((outcome ? 1 : 0) + waiting.length !== 1)
            problems.push(`${rname}: ${outcome ? `settled ${outcome.state}` : 'not settled'} and ${waiting.length} step item(s) waiting`);
          if (waiting.length > 0 && options.expectCompleted) problems.push(`${rname}: still ${waiting[0]!.status} at the end (due ${waiting[0]!.due_at})`);
          if (!outcome) continue;
          if (outcome.state === 'sent') {
            stepsSent++;
            count(countedDay, pacificDate(new Date(outcome.at)));
            count(countedMonth, pacificMonth(new Date(outcome.at)));
            const last = stepDelivered.at(-1);
            if (stepDelivered.length !== 1 || last!.fault !== undefined)
              problems.push(
                `${rname}: sent, but the mailer accepted it ${stepDelivered.filter((c) => !c.fault).length} times (${stepCalls.map(fmt).join('; ') || 'no call'})`,
              );
            else if (outcome.message_id !== last!.messageId || outcome.token !== last!.token)
              problems.push(`${rname}: sent with message id ${outcome.message_id}, the mailer got ${last!.messageId}`);
          } else if (outcome.state !== 'unknown' && stepDelivered.length > 0)
            problems.push(`${rname}: ${outcome.state}, yet delivered (${stepDelivered.map(fmt).join('; ')})`);
          if (outcome.state === 'unknown') {
            const claimedAt = lastClaimAt.get(slot(campaign.id, r.position, step));
            if (!claimedAt) problems.push(`${rname}: unknown without ever being claimed`);
            else {
              count(countedDay, pacificDate(claimedAt));
              count(countedMonth, pacificMonth(claimedAt));
            }
          }
          if (outcome.state === 'failed') {
            const lastFault = stepCalls.filter((c) => c.fault !== 'crashed').at(-1)?.fault;
            if (lastFault !== 'rejected' && lastFault !== 'rate_limited' && lastFault !== 'transient')
              problems.push(`${rname}: failed after ${stepCalls.map((c) => c.fault ?? 'accepted').join(', ') || 'no call'}`);
          }
        }
      }
      const followUpsSent = Number(item.follow_ups_sent ?? 0);
      if (followUpsSent !== stepsSent) problems.push(`${name}: follow_ups_sent = ${followUpsSent}, ${stepsSent} steps sent`);
      const allFinal = recipients.every((r) => FINAL.has(r.status));
      if (item.status === 'completed' && !allFinal) problems.push(`${name}: completed with recipients not final`);
      if (!paused && item.status !== 'completed') {
        active = true;
        if (options.expectCompleted) problems.push(`${name}: ended ${String(item.status)}/${String(item.sending_status)}, not completed`);
      }
      if (paused) active = true;
    }
    for (const [d, stored] of day) {
      const expected = countedDay.get(d) ?? 0;
      if (stored !== expected) problems.push(`${user.userId}: DAY#${d} = ${stored}, sent + unknown that day = ${expected}`);
    }
    for (const [m, stored] of month) {
      const expected = countedMonth.get(m) ?? 0;
      if (stored !== expected) problems.push(`${user.userId}: MONTH#${m} = ${stored}, sent + unknown that month = ${expected}`);
    }
    // The cursor: in the DUE index iff there is work; idle at the end when everything completed.
    const queue = cursor?.queue ?? {};
    // A step still waiting keeps the cursor due (at the step's time), like a campaign on it.
    if (!active && followUps.length === 0 && (Object.keys(queue).length > 0 || cursor?.due_at !== undefined || cursor?.DuePK !== undefined)) {
      problems.push(`${user.userId}: every campaign done, but the cursor still has ${Object.keys(queue).length} campaign(s), due_at ${String(cursor?.due_at)}`);
    }
    if (Object.keys(queue).length > 0 && cursor?.due_at === undefined) problems.push(`${user.userId}: campaigns on the cursor but it is not due (stuck)`);
    if (followUps.length > 0 && cursor?.due_at === undefined)
      problems.push(`${user.userId}: ${followUps.length} follow-up step(s) waiting but the cursor is not due (stuck)`);
  }
  return problems;
}

/** A step's outcome on its first email's recipient (`follow_up_<n>`), if settled. */
function stepOutcome(recipient: Record<string, unknown>, step: number): FollowUpOutcome | undefined {
  const outcome = recipient[`follow_up_${step}`] as FollowUpOutcome | null | undefined;
  return outcome ?? undefined;
}

/**
 * The follow-up steps delivered against the stop acts and the first emails (issue 27 §1; DESIGN §14):
 * - no step goes whose claim started after a stop act of its email was written (and held at the end):
 *   an answer, a listen (under 'Only if they did not listen'), a person's click, the Replied mark; or
 *   after 'Not for us' to its track by its address in any campaign (with no other answer to the track
 *   by the address written or in flight since); an unsubscribe is checked with the first emails;
 * - a step goes in its first email's thread (Gmail's thread id, In-Reply-To our Message-ID, 'Re: <subject>'),
 *   and not before it is due (its days after the first email was sent).
 */
function stopViolations(
  world: PipelineWorld,
  snapshot: Snapshot,
  calls: readonly MailerCall[],
  events: readonly PipelineEvent[],
  claimOf: ReadonlyMap<MailerCall, number>,
  fmt: (call: MailerCall) => string,
): string[] {
  const problems: string[] = [];
  type Act = Extract<PipelineEvent, { kind: 'action' }>;
  const ends = events.filter((e): e is Act => e.kind === 'action' && e.phase === 'end' && ['answer', 'listen', 'click', 'reply'].includes(e.action));
  const starts = events.filter((e): e is Act => e.kind === 'action' && e.phase === 'start' && e.action === 'answer');
  const recipientOf = (campaignId: string, position: number) => {
    for (const u of snapshot.users) for (const c of u.campaigns) if (c.campaign.id === campaignId) return c.recipients.find((r) => r.position === position);
    return undefined;
  };
  for (const call of calls) {
    if (call.step === 0 || !call.delivered) continue;
    const c = world.campaignOf(call.campaignId);
    const r = recipientOf(call.campaignId, call.position);
    if (!c || !r) {
      problems.push(`${fmt(call)}: a step of an email the table does not hold`);
      continue;
    }
    const first = firstEmailOf(r);
    if (!first) problems.push(`${fmt(call)}: a step of a first email that was not sent (${r.status})`);
    else {
      if (call.replyTo?.threadId !== first.thread.threadId || call.replyTo.inReplyTo !== first.thread.inReplyTo)
        problems.push(`${fmt(call)}: not in its first email's thread (${JSON.stringify(call.replyTo)}, first ${JSON.stringify(first.thread)})`);
      if (call.subject !== replySubject(first.subject)) problems.push(`${fmt(call)}: subject ${call.subject}, not a reply to ${first.subject}`);
    }
    const step = c.followUps.steps[call.step - 1];
    const dueAt = step && r.sent_at ? Date.parse(r.sent_at) + step.after_days * world.followUpDayMs : undefined;
    if (dueAt === undefined || call.at.getTime() < dueAt)
      problems.push(`${fmt(call)}: sent before it was due (${dueAt === undefined ? 'no such step' : new Date(dueAt).toISOString()})`);
    const claimStart = claimOf.get(call);
    if (claimStart === undefined) continue;
    const on = (e: Act) => e.campaignId === call.campaignId && e.position === call.position && e.seq < claimStart;
    const held = (e: Act): boolean => {
      switch (e.action) {
        case 'answer':
          return typeof r.answered_at === 'string';
        case 'listen':
          return e.outcome === 'recorded' && c.followUps.condition === 'not_listened' && typeof r.listened_at === 'string';
        case 'click':
          return typeof r.clicked_at === 'string';
        case 'reply':
          return e.outcome === 'marked' && typeof r.replied_at === 'string';
        default:
          return false;
      }
    };
    for (const e of ends.filter((e) => on(e) && held(e)))
      problems.push(`${fmt(call)}: sent, though its email's ${e.action} was written (#${e.seq}) before the step's claim started (#${claimStart})`);
    // 'Not for us' to the track, in any campaign, by this address.
    const sameTrack = (e: Act) => e.trackKey === c.trackKey && e.email === call.to && e.userId === call.userId;
    const sameAct = (a: Act, b: Act) => a.campaignId === b.campaignId && a.position === b.position && a.answer === b.answer;
    const endOf = (start: Act) => ends.find((e) => e.seq > start.seq && sameTrack(e) && sameAct(e, start))?.seq ?? Infinity;
    for (const no of ends.filter((e) => e.action === 'answer' && e.answer === 'not_for_us' && sameTrack(e) && e.seq < claimStart)) {
      const noStart = [...starts].reverse().find((s) => s.seq < no.seq && sameTrack(s) && sameAct(s, no))?.seq ?? no.seq;
      // Another answer to the track takes 'Not for us' back: one started before the claim that ended after 'Not for us' began.
      const takenBack = starts.some((s) => sameTrack(s) && s.answer !== 'not_for_us' && s.seq < claimStart && endOf(s) > noStart);
      if (!takenBack)
        problems.push(
          `${fmt(call)}: sent, though 'Not for us' to its track was answered in campaign ${no.campaignId} (#${no.seq}) before the step's claim started (#${claimStart})`,
        );
    }
  }
  return problems;
}

/** The counters of one user and their campaigns against their logs (the recipients, the UNSUB items). */
function counterViolations(
  userId: string,
  campaigns: Snapshot['users'][number]['campaigns'],
  unsubscribes: readonly Record<string, unknown>[],
  stored: CountersFromLogs,
): string[] {
  const problems: string[] = [];
  // Only an unsubscribe from an email counts (the tracking store's, naming its campaign).
  const fromEmails: (LoggedUnsubscribe & { campaign_id: string })[] = unsubscribes.flatMap((u) =>
    typeof u.campaign_id === 'string' && typeof u.unsubscribed_at === 'string' ? [{ campaign_id: u.campaign_id, unsubscribed_at: u.unsubscribed_at }] : [],
  );
  const expected = countersFromLogs(
    campaigns.flatMap((c) => c.recipients),
    fromEmails,
    // Every campaign of the run was queued through the send flow: each that left draft counts once, on its first batch's day.
    { contacts: 0, campaigns: campaigns.flatMap((c) => (c.item ? [c.item as unknown as StoredCampaign] : [])) },
  );
  // Only what the pipeline writes: contacts_count is its store's (tests/integration/contact-counters.test.ts).
  for (const name of [...EMAIL_COUNTERS, ...EVENT_COUNTERS, 'campaigns_sent'] as const) {
    const value = expected.totals[name];
    if (stored.totals[name] !== value) problems.push(`${userId}: STATS ${name} = ${stored.totals[name]}, the logs say ${value}`);
  }
  for (const day of new Set([...expected.days.keys(), ...stored.days.keys()])) {
    for (const name of DAY_COUNTERS) {
      const want = expected.days.get(day)?.[name] ?? 0;
      const got = stored.days.get(day)?.[name] ?? 0;
      if (want !== got) problems.push(`${userId}: STATS#${day} ${name} = ${got}, the logs say ${want}`);
    }
  }
  for (const { campaign, item, recipients, links } of campaigns) {
    if (!item) continue;
    const emails: LoggedEmail[] = recipients;
    const perCampaign = {
      emails_opened: emails.filter((r) => r.opened_at).length,
      emails_machine_opened: emails.filter((r) => r.machine_open_count > 0).length,
      emails_clicked: emails.filter((r) => r.clicked_at).length,
      emails_unsubscribed: fromEmails.filter((u) => u.campaign_id === campaign.id).length,
      emails_listened: emails.filter((r) => r.listened_at).length,
      emails_answered: emails.filter((r) => r.first_answered_at).length,
    };
    for (const [name, want] of Object.entries(perCampaign)) {
      const got = Number(item[name] ?? 0);
      if (got !== want) problems.push(`${userId} campaign ${campaign.id}: ${name} = ${got}, the recipients say ${want}`);
    }
    const linkClicks = links.reduce((n, link) => n + Number(link.click_count ?? 0), 0);
    const clicks = emails.reduce((n, r) => n + r.click_count, 0);
    if (linkClicks !== clicks) problems.push(`${userId} campaign ${campaign.id}: ${linkClicks} clicks on its links, ${clicks} on its recipients`);
  }
  return problems;
}
