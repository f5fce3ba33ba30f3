/**
 * Public entry of the contacts feature: the Connect button (default export of its module, also
 * loaded lazily by pages that show it below the fold) and the contact queries others show.
 */
export { CONTACTS_KEY, contactRequestCountQuery, myContactsQuery } from './api/contacts';
export { default as ConnectButton } from './components/connect-button';
