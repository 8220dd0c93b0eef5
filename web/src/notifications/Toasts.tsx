import Button from '@cloudscape-design/components/button';
import Flashbar, { type FlashbarProps } from '@cloudscape-design/components/flashbar';
import { useInRouterContext } from 'react-router-dom';
import { useFollow } from '../components/useFollow';
import type { Notification, NotificationAction } from './NotificationsContext';
import styles from './toasts.module.css';

/** An app path is followed through the router (no reload); useFollow needs the router, so only here. */
function RoutedLinkAction({ label, href, onUsed }: { label: string; href: string; onUsed: () => void }) {
  const follow = useFollow();
  return (
    <Button
      href={href}
      onFollow={(event) => {
        follow(event);
        onUsed();
      }}
    >
      {label}
    </Button>
  );
}

function ActionButton({ action, onUsed }: { action: NotificationAction; onUsed: () => void }) {
  const inRouter = useInRouterContext();
  if (action.href !== undefined) {
    if (inRouter && action.href.startsWith('/')) return <RoutedLinkAction label={action.label} href={action.href} onUsed={onUsed} />;
    return (
      <Button href={action.href} onFollow={onUsed}>
        {action.label}
      </Button>
    );
  }
  return (
    <Button
      onClick={() => {
        onUsed();
        action.onClick();
      }}
    >
      {action.label}
    </Button>
  );
}

export default function Toasts({
  notifications,
  onDismiss,
  placement,
}: {
  notifications: readonly Notification[];
  onDismiss: (id: string) => void;
  /** fixed: over the page, top right (bottom on phones); inline: in the slot of the page that claimed them. */
  placement: 'fixed' | 'inline';
}) {
  const items: FlashbarProps.MessageDefinition[] = notifications.map((n) => ({
    id: n.id,
    type: n.type,
    header: n.title,
    content: n.message,
    action: n.action ? <ActionButton action={n.action} onUsed={() => onDismiss(n.id)} /> : undefined,
    dismissible: true,
    dismissLabel: 'Dismiss notification',
    onDismiss: () => onDismiss(n.id),
    ariaRole: n.type === 'error' ? 'alert' : 'status',
  }));
  if (placement === 'inline') return <Flashbar items={items} />;
  return (
    <div className={styles.toasts}>
      <Flashbar items={items} />
    </div>
  );
}
