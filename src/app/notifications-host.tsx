import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Notification.css';
import '@mantine/notifications/styles.css';
import { Notifications } from '@mantine/notifications';
import classes from './notifications-host.module.css';

export default function NotificationsHost() {
  return <Notifications position="top-center" classNames={{ root: classes.root }} />;
}
