import { cropWindow } from "../src/index";
const c = await cropWindow("/tmp/vt/fi.mp4", 30.2, 36.2);
