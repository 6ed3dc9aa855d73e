// Where the new-mission map opens: the demo city, until the partner draws or imports elsewhere.
// [west, south, east, north]; shared with the e2e page object that draws on that map.
export const NEW_MISSION_VIEW: [number, number, number, number] = [11.22, 43.755, 11.29, 43.785];
