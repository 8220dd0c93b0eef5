import Flashbar, { type FlashbarProps } from '@cloudscape-design/components/flashbar';
import type { Notification } from './NotificationsContext';
import styles from './toasts.module.css';

export default function Toasts({
  notifications,
  onDismiss,
}: {
  notifications: readonly Notification[];
  onDismiss: (id: string) => void;
}) {
  const items: FlashbarProps.MessageDefinition[] = notifications.map((n) => ({
    id: n.id,
    type: n.type,
    header: n.title,
    content: n.message,
    dismissible: true,
    dismissLabel: 'Dismiss notification',
    onDismiss: () => onDismiss(n.id),
    ariaRole: n.type === 'error' ? 'alert' : 'status',
  }));
  return (
    <div className={styles.toasts}>
      <Flashbar items={items} />
    </div>
  );
}
