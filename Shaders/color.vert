#version 330 core
// Unlit vertex-coloured geometry: the ground grid and the axes.
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec4 aColor;

uniform mat4 uModelViewProjection;

out vec4 vColor;

void main() {
    vColor = aColor;
    gl_Position = uModelViewProjection * vec4(aPosition, 1.0);
}
