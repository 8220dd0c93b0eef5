/**
 * Test data builders: one complete, valid value of each kind the tests hand to the code under test,
 * typed by schema/ and lambdas/ports.ts, any field overridable. The defaults are spelled out here and
 * never taken from the product's own default-producing code (newProfile, newDraftCampaign, the sending
 * store's recipient defaults), so a wrong default in the product cannot pass a test by construction.
 * Builders are for inputs: a test that asserts a value passes it in, and spells expected values literally.
 */
import type { AiTrackInput, Campaign } from '../../schema/api/campaigns';
import { NO_FOLLOW_UPS } from '../../schema/api/followUpValues';
import type { Contact } from '../../schema/api/contacts';
import type { DemoPolicy } from '../../schema/api/demoPolicyValues';
import type { Profile } from '../../schema/api/profile';
import type { DraftContent, RecipientRecord, SendingCampaign, StoredMailbox } from '../../lambdas/ports';

const CREATED_AT = '2026-11-01T00:00:00.000Z';

/** A label's contact with only the required fields filled. */
export function buildContact(overrides: Partial<Contact> = {}): Contact {
  return {
    id: 'contact-1',
    name: 'Recipient 1',
    email: 'recipient1@label.test',
    label_name: 'Label 1',
    contact_type: 'Label',
    position: null,
    genre: null,
    website_url: null,
    notes: null,
    genre_focus: null,
    time_zone: null,
    created_at: CREATED_AT,
    ...overrides,
  };
}

/** A free-plan artist's profile, no mailbox connected. */
export function buildProfile(overrides: Partial<Profile> = {}): Profile {
  return {
    id: 'user-1',
    created_at: CREATED_AT,
    email: 'artist@artist.test',
    full_name: 'Ada Artist',
    artist_name: null,
    bio: null,
    website_url: null,
    soundcloud_url: null,
    spotify_url: null,
    instagram_url: null,
    tier: 'free',
    emails_used: 0,
    email_limit: 50,
    gmail_connected: false,
    gmail_daily_limit: 500,
    gmail_account_type: 'free',
    gmail_email: null,
    labelfinder_additions_count: 0,
    subscription_status: 'none',
    subscription_end: null,
    cancel_at_period_end: false,
    tour_completed: false,
    time_zone: null,
    ...overrides,
  };
}

/** A connected free Gmail mailbox as the mailbox store keeps it. */
export function buildMailbox(overrides: Partial<StoredMailbox> = {}): StoredMailbox {
  return {
    email: 'artist@gmail.test',
    accountType: 'free',
    dailyLimit: 500,
    sealedRefreshToken: 'sealed',
    connectedAt: CREATED_AT,
    ...overrides,
  };
}

/** A track and its email as a draft holds them: an HTML-mode email linking to the track. */
export function buildDraftContent(overrides: Partial<DraftContent> = {}): DraftContent {
  return {
    mode: 'html',
    track_name: 'Midnight Drive',
    track_url: 'https://music.test/midnight-drive',
    genre: 'Electronic',
    mood: null,
    bpm: null,
    description: 'A late-night track',
    ai_tone: 'professional',
    email_length: 150,
    email_subject: 'New track for [CONTACT_NAME]',
    email_body: '<!DOCTYPE html><html><body><p>Hi [CONTACT_NAME],</p><p><a href="https://music.test/midnight-drive">Listen</a></p></body></html>',
    personalised_by_writer: false,
    preview_contact_id: null,
    total_recipients: 1,
    track_id: null,
    allow_download: false,
    listen_days: 90,
    released: false,
    ...overrides,
  };
}

/** A draft campaign of that content: nothing queued or sent. */
export function buildCampaign(overrides: Partial<Campaign> = {}): Campaign {
  return {
    id: 'campaign-1',
    ...buildDraftContent(),
    status: 'draft',
    sending_status: null,
    total_queued: 0,
    next_send_at: null,
    emails_sent: 0,
    emails_opened: 0,
    emails_clicked: 0,
    emails_unsubscribed: 0,
    emails_failed: 0,
    emails_skipped: 0,
    emails_unknown: 0,
    emails_machine_opened: 0,
    follow_ups: NO_FOLLOW_UPS,
    emails_listened: 0,
    emails_answered: 0,
    emails_downloaded: 0,
    send_after: null,
    pause_reason: null,
    send_window: null,
    started_sending_at: null,
    completed_sending_at: null,
    created_at: CREATED_AT,
    updated_at: CREATED_AT,
    ...overrides,
  };
}

/** A campaign as the sender reads it (with the send flow's attributes): a draft unless overridden. */
export function buildSendingCampaign(overrides: Partial<SendingCampaign> = {}): SendingCampaign {
  return { ...buildCampaign(), queued_through: 0, last_batch_at: null, resume_position: null, resume_waiting: null, ...overrides };
}

/** A queued recipient of a campaign, not yet claimed; its name and address are its contact's. */
export function buildRecipient(overrides: Partial<RecipientRecord> = {}): RecipientRecord {
  const contact = overrides.contact ?? buildContact();
  return {
    campaign_id: 'campaign-1',
    user_id: 'user-1',
    position: 0,
    contact,
    recipient_name: contact.name,
    recipient_email: contact.email,
    status: 'pending',
    attempts: 0,
    retry_at: null,
    claimed_at: null,
    token: null,
    message_id: null,
    provider_message_id: null,
    thread_id: null,
    subject: null,
    html: null,
    text: null,
    sent_at: null,
    opened_at: null,
    last_opened_at: null,
    open_count: 0,
    machine_opened_at: null,
    machine_open_count: 0,
    clicked_at: null,
    last_clicked_at: null,
    click_count: 0,
    first_listened_at: null,
    last_listened_at: null,
    listened_at: null,
    listen_max_percent: 0,
    listen_seconds: 0,
    play_count: 0,
    download_count: 0,
    answer: null,
    answer_note: null,
    answered_at: null,
    first_answered_at: null,
    detail: null,
    replied_at: null,
    passed_at: null,
    follow_up_1: null,
    follow_up_2: null,
    ...overrides,
  };
}

/** A track form as the AI writer receives it (the campaign's track fields). */
export function buildAiTrack(overrides: Partial<AiTrackInput> = {}): AiTrackInput {
  return {
    track_name: 'Night Drive',
    track_url: 'https://soundcloud.com/nova/night-drive',
    genre: 'deep-house',
    mood: null,
    bpm: '122',
    description: 'A rolling late-night groove.',
    ai_tone: 'friendly',
    email_length: 150,
    ...overrides,
  };
}

/** A label's demo policy (issue 28 §2): demos by email, no rule, any genre, unless overridden. */
export function buildDemoPolicy(overrides: Partial<DemoPolicy> = {}): DemoPolicy {
  return {
    submit_by: 'email',
    submit_url: null,
    private_streaming_only: false,
    download_wanted: false,
    attachments_refused: false,
    unreleased_only: false,
    genres: [],
    response_days: null,
    max_email_words: null,
    ...overrides,
  };
}
