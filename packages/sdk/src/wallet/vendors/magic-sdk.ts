// The Magic SDK behind one dynamic import (chunk magicSdk-*.js), loaded only when chosen.
export { Magic } from 'magic-sdk'
