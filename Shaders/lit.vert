#version 330 core
// Lit meshes: position and normal per vertex, lit per fragment (lit.frag).
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;

uniform mat4 uModel;
uniform mat4 uViewProjection;

out vec3 vWorldPosition;
out vec3 vWorldNormal;

void main() {
    vec4 world = uModel * vec4(aPosition, 1.0);
    vWorldPosition = world.xyz;
    // uModel is rotation, translation and uniform scale, so its upper 3x3 carries normals.
    vWorldNormal = mat3(uModel) * aNormal;
    gl_Position = uViewProjection * world;
}
