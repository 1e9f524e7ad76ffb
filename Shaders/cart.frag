#version 330 core
// Lighting and fog are done per vertex (badger.vert): each pixel only takes its colour.
in vec3 vColor;
out vec4 fragColor;

void main() {
    fragColor = vec4(vColor, 1.0);
}
