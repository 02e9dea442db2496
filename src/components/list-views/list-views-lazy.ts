// What the Views menu, Save view and the Columns menu load on first use, as one chunk: one dynamic
// import on the list's first visit rather than three (each costs its preload list there).
export { ColumnsMenu } from './columns-menu';
export { SaveViewDialog } from './view-name-dialog';
export { ViewsMenu } from './views-menu';
