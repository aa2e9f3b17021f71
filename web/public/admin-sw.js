// The /admin service worker (registered with scope /admin when the merchant turns notifications
// on): the push handlers only. The installable admin's worker (offline week, ADR 0055) takes the
// same handlers with importScripts('/admin-push.js') and replaces this file.
importScripts('/admin-push.js');
